/**
 * GET /deployment/config: the deployment's settings as `{config, options}`.
 * Secret-bearing values are never included.
 */
import { authorize, Settings } from "@workbay/core"
import { Context, Duration, Effect, Layer } from "effect"

export class DeploymentConfig extends Context.Tag("@workbay/http/DeploymentConfig")<DeploymentConfig, {
  readonly read: Effect.Effect<{ readonly config: Record<string, unknown>; readonly options: ReadonlyArray<Record<string, unknown>> }, import("@workbay/core").Forbidden, import("@workbay/core").CurrentActor>
}>() {
  static readonly layer = Layer.effect(
    DeploymentConfig,
    Effect.map(Settings, (s) => {
      const config: Record<string, unknown> = {
        access_url: s.accessUrl,
        session_lifetime: {
          default_duration: Duration.toMillis(s.sessionDuration) * 1e6,
          default_token_lifetime: Duration.toMillis(s.defaultTokenLifetime) * 1e6,
          disable_expiry_refresh: s.disableSessionExpiryRefresh,
          max_admin_token_lifetime: Duration.toMillis(s.maxAdminTokenLifetime) * 1e6,
          max_token_lifetime: Duration.toMillis(s.maxTokenLifetime) * 1e6,
          refresh_default_duration: 0
        },
        experiments: s.experiments,
        swagger: { enable: s.swaggerEnable },
        disable_password_auth: s.disablePasswordAuth,
        pg_connection_url: "",
        user_quiet_hours_schedule: { default_schedule: s.defaultQuietHoursSchedule, allow_user_custom: s.allowCustomQuietHours }
      }
      return {
        read: Effect.as(authorize("read", { type: "deployment_config" }), { config, options: [] })
      }
    })
  )
}
