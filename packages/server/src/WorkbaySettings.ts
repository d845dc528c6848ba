/** The deployment settings the standalone server gives `makeWorkbay`, from its configuration. */
import type { SettingsShape } from "@workbay/core"
import type { GivenSetting, ServerConfig } from "./Config.js"

/**
 * Every setting the configuration gives (by flag or variable), with its source for
 * `/deployment/config`; absent ones keep the deployment defaults.
 */
export const workbaySettings = (config: ServerConfig): Partial<SettingsShape> => {
  const { auditLogs, connectionLogs, apiKeys, workspaceAgentLogs } = config.retention
  const { aws, azure, google } = config.instanceIdentity
  const asList = (g: GivenSetting<string> | undefined) => g && { value: [g.value], source: g.source }
  const given: ReadonlyArray<readonly [string, GivenSetting<unknown> | undefined]> = [
    ["retentionAuditLogs", auditLogs],
    ["retentionConnectionLogs", connectionLogs],
    ["retentionApiKeys", apiKeys],
    ["retentionWorkspaceAgentLogs", workspaceAgentLogs],
    ["disableWorkspaceSharing", config.disableWorkspaceSharing],
    ["disablePathApps", config.pathApps.disable],
    ["dangerousAllowPathAppSharing", config.pathApps.allowSharing],
    ["dangerousAllowPathAppSiteOwnerAccess", config.pathApps.allowSiteOwnerAccess],
    ["awsInstanceIdentityCertificates", asList(aws)],
    ["azureInstanceIdentityCertificates", asList(azure)],
    ["googleInstanceIdentityKeys", asList(google)],
    ...Object.entries(config.settings),
    ["externalAuth", config.externalAuth]
  ]
  const present = given.filter((e): e is readonly [string, GivenSetting<unknown>] => e[1] !== undefined)
  // Where the other replicas reach this one: given, else the listening address when --host names one.
  const relayUrl = config.settings.derpServerRelayUrl === undefined && config.host !== undefined &&
      !["0.0.0.0", "::", ""].includes(config.host)
    ? { derpServerRelayUrl: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}` }
    : {}
  return {
    ...relayUrl,
    accessUrl: config.accessUrl,
    swaggerEnable: config.swaggerEnable,
    experiments: config.experiments,
    ...(config.relayMap !== undefined ? { relayMap: config.relayMap } : {}),
    ...Object.fromEntries(present.map(([setting, g]) => [setting, g.value])),
    valueSources: Object.fromEntries(present.map(([setting, g]) => [setting, g.source]))
  }
}
