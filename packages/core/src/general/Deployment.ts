/** General routes: build info, update check, deployment config, SSH config, stats and experiments. */
import { Clock, Duration, Effect } from "effect"
import { authorize } from "../Actor.js"
import { AgentReportRepo } from "../agents/Reports.js"
import { PROVISIONER_API_VERSION } from "../provisioners/ProvisionerDaemons.js"
import { Settings } from "../Settings.js"
import { WorkspaceRepo } from "../workspaces/Workspace.js"
import { BuildInfo, DeploymentSsh, UpdateCheck } from "./BuildInfo.js"
import { deploymentConfig } from "./DeploymentConfig.js"

/** The `p`th percentile (0..1) of `values`, interpolated as Postgres' `percentile_cont`; -1 without values (the described system's). */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return -1
  const sorted = [...values].sort((a, b) => a - b)
  const rank = p * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo)
}

/** Experiments this build knows; all are safe to enable. */
export const availableExperiments: ReadonlyArray<string> = [
  "notifications",
  "workspace-usage",
  "web-push",
  "oauth2",
  "mcp-server-http"
]

/** API versions reported by build info. */
export const AGENT_API_VERSION = "2.0"

/**
 * The enabled experiments as Coder reads them: names are trimmed and
 * lower-cased, `*` stands for every available experiment, unknown names are
 * kept (they are enabled, just not known to be safe), duplicates are dropped.
 */
export const enabledExperiments = (configured: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const raw of configured) {
    const name = raw.trim().toLowerCase()
    if (name === "") continue
    if (name === "*") { for (const e of availableExperiments) out.add(e) }
    else out.add(name)
  }
  return [...out]
}

/** Parses `key=value` or `key value` SSH options (Coder's rule: the first `=` or space separates). */
export const parseSshConfigOptions = (options: ReadonlyArray<string>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const option of options) {
    const i = option.search(/[ =]/)
    if (i <= 0) continue
    out[option.slice(0, i)] = option.slice(i + 1)
  }
  return out
}

export class Deployment extends Effect.Service<Deployment>()("@workbay/core/Deployment", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings
    const workspaceRepo = yield* WorkspaceRepo
    const agentReports = yield* AgentReportRepo

    const buildInfo = new BuildInfo({
      agent_api_version: AGENT_API_VERSION,
      dashboard_url: settings.accessUrl,
      deployment_id: settings.deploymentId,
      external_url: "https://github.com/coder/coder",
      provisioner_api_version: PROVISIONER_API_VERSION,
      telemetry: settings.telemetryEnable,
      upgrade_message: settings.cliUpgradeMessage,
      version: settings.version,
      workspace_proxy: false
    })

    // Settings do not change while the service runs: compute the answers once.
    const config = deploymentConfig(settings)
    const ssh = new DeploymentSsh({
      hostname_prefix: settings.sshHostnamePrefix,
      hostname_suffix: settings.sshHostnameSuffix,
      ssh_config_options: parseSshConfigOptions(settings.sshConfigOptions)
    })
    const experiments = enabledExperiments(settings.experiments)

    const stats = Effect.gen(function*() {
      yield* authorize("read", { type: "deployment_stats" })
      const at = yield* Clock.currentTimeMillis
      // Workspaces by their latest build's status, as the described system groups them.
      const n = new Map((yield* workspaceRepo.countByStatus()).map((c) => [c.status, c.count]))
      const count = (...statuses: ReadonlyArray<string>) =>
        statuses.reduce((sum, s) => sum + (n.get(s as never) ?? 0), 0)
      // The agents' reports of the window: traffic summed, sessions as each agent last reported them.
      const agentStats = yield* agentReports.statsSince(new Date(at - Duration.toMillis(Duration.minutes(15))))
      return {
        aggregated_from: new Date(at - Duration.toMillis(Duration.minutes(15))),
        collected_at: new Date(at),
        next_update_at: new Date(at + Duration.toMillis(Duration.minutes(5))),
        session_count: {
          jetbrains: agentStats.session_count_jetbrains,
          reconnecting_pty: agentStats.session_count_reconnecting_pty,
          ssh: agentStats.session_count_ssh,
          vscode: agentStats.session_count_vscode
        },
        workspaces: {
          pending: count("pending"),
          building: count("starting", "stopping", "deleting"),
          running: count("running"),
          failed: count("failed", "canceled", "canceling"),
          stopped: count("stopped"),
          rx_bytes: agentStats.rx_bytes,
          tx_bytes: agentStats.tx_bytes,
          connection_latency_ms: {
            P50: percentile(agentStats.latencies, 0.5),
            P95: percentile(agentStats.latencies, 0.95)
          }
        }
      }
    })

    return {
      buildInfo: Effect.succeed(buildInfo),
      updateCheck: Effect.succeed(
        new UpdateCheck({ current: true, url: buildInfo.external_url, version: settings.version })
      ),
      /** `{config, options}` without any secret; owners and auditors only (403 otherwise). */
      config: Effect.as(authorize("read", { type: "deployment_config" }), config),
      ssh: Effect.succeed(ssh),
      stats,
      experiments: Effect.succeed(experiments),
      availableExperiments: Effect.succeed(availableExperiments)
    } as const
  })
}) {}
