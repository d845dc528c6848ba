/**
 * Deployment settings that rules depend on. The server fills them from the
 * environment and flags; embedders pass them to `layer` or take the defaults.
 */
import { Context, Duration, Layer } from "effect"

export interface SettingsShape {
  /** The public URL of the deployment. */
  readonly accessUrl: string
  /** Lifetime of a login session. */
  readonly sessionDuration: Duration.Duration
  /** When true, sessions are not extended on use. */
  readonly disableSessionExpiryRefresh: boolean
  /** Lifetime of a token created without `lifetime`. */
  readonly defaultTokenLifetime: Duration.Duration
  /** Upper bound of a token's lifetime for members. */
  readonly maxTokenLifetime: Duration.Duration
  /** Upper bound of a token's lifetime for owners. */
  readonly maxAdminTokenLifetime: Duration.Duration
  /** Lifetime of a one-time passcode. */
  readonly oneTimePasscodeLifetime: Duration.Duration
  readonly disablePasswordAuth: boolean
  /** Serves the OpenAPI document when on. */
  readonly swaggerEnable: boolean
  readonly experiments: ReadonlyArray<string>
  /** Default quiet-hours schedule (cron with CRON_TZ), and whether users may set theirs. */
  readonly defaultQuietHoursSchedule: string
  readonly allowCustomQuietHours: boolean
  readonly version: string
  readonly deploymentId: string
  readonly sshHostnamePrefix: string
  readonly sshHostnameSuffix: string
}

export const defaultSettings: SettingsShape = {
  accessUrl: "http://localhost:3000",
  sessionDuration: Duration.hours(24),
  disableSessionExpiryRefresh: false,
  defaultTokenLifetime: Duration.days(30),
  maxTokenLifetime: Duration.days(30),
  maxAdminTokenLifetime: Duration.days(7 * 52),
  oneTimePasscodeLifetime: Duration.minutes(15),
  disablePasswordAuth: false,
  swaggerEnable: false,
  experiments: [],
  defaultQuietHoursSchedule: "CRON_TZ=UTC 0 0 * * *",
  allowCustomQuietHours: true,
  version: "v0.1.0",
  deploymentId: "00000000-0000-4000-8000-000000000000",
  sshHostnamePrefix: "coder.",
  sshHostnameSuffix: ""
}

export class Settings extends Context.Tag("@workbay/core/Settings")<Settings, SettingsShape>() {
  static readonly layer = (overrides: Partial<SettingsShape> = {}) =>
    Layer.succeed(Settings, { ...defaultSettings, ...overrides })
}
