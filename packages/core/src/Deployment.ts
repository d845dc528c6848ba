/** General routes: build info, update check, deployment config, SSH config, stats and experiments. */
import { Clock, Duration, Effect } from "effect"
import { authorize } from "./Actor.js"
import { BuildInfo, UpdateCheck } from "./Misc.js"
import { Settings } from "./Settings.js"

/** Experiments this build knows; all are safe to enable. */
export const availableExperiments: ReadonlyArray<string> = ["notifications", "workspace-usage", "web-push", "oauth2", "mcp-server-http"]

/** API versions reported by build info. */
export const AGENT_API_VERSION = "2.0"
export const PROVISIONER_API_VERSION = "1.0"

export class Deployment extends Effect.Service<Deployment>()("@workbay/core/Deployment", {
  effect: Effect.gen(function*() {
    const settings = yield* Settings

    const buildInfo = new BuildInfo({
      agent_api_version: AGENT_API_VERSION,
      dashboard_url: settings.accessUrl,
      deployment_id: settings.deploymentId,
      external_url: "https://github.com/coder/coder",
      provisioner_api_version: PROVISIONER_API_VERSION,
      telemetry: false,
      upgrade_message: "",
      version: settings.version,
      webpush_public_key: "",
      workspace_proxy: false
    })

    const stats = Effect.gen(function*() {
      yield* authorize("read", { type: "deployment_stats" })
      const at = yield* Clock.currentTimeMillis
      return {
        aggregated_from: new Date(at - Duration.toMillis(Duration.minutes(15))),
        collected_at: new Date(at),
        next_update_at: new Date(at + Duration.toMillis(Duration.minutes(5))),
        session_count: { jetbrains: 0, reconnecting_pty: 0, ssh: 0, vscode: 0 },
        workspaces: {
          building: 0, failed: 0, pending: 0, running: 0, stopped: 0, rx_bytes: 0, tx_bytes: 0,
          connection_latency_ms: { p50: 0, p95: 0 }
        }
      }
    })

    return {
      buildInfo: Effect.succeed(buildInfo),
      updateCheck: Effect.succeed(new UpdateCheck({ current: true, url: buildInfo.external_url, version: settings.version })),
      ssh: Effect.succeed({
        hostname_prefix: settings.sshHostnamePrefix,
        hostname_suffix: settings.sshHostnameSuffix,
        ssh_config_options: {} as Record<string, string>
      }),
      stats,
      experiments: Effect.succeed(settings.experiments.filter((e) => availableExperiments.includes(e) || e === "*").flatMap((e) => e === "*" ? availableExperiments : [e])),
      availableExperiments: Effect.succeed(availableExperiments)
    } as const
  })
}) {}
