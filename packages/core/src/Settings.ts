/**
 * Deployment settings that rules depend on. The server fills them from the environment and
 * flags; embedders pass them to `layer` or take the defaults. Each setting is declared once, in
 * the settings table (settings/Table.ts), with its default, flag, variable, help and its option
 * in `GET /deployment/config`; this module gives the values' type and defaults from it.
 */
import { Context, Layer } from "effect"
import { type SettingKey, settingsList, type SettingValues } from "./settings/Table.js"

export type { ExternalAuthConfig } from "./settings/Types.js"

/** Where a setting's value came from, as `GET /deployment/config` reports it. */
export type SettingSource = "flag" | "env" | "yaml" | "default"

export interface SettingsShape extends SettingValues {
  // Identity of this deployment
  readonly version: string
  readonly deploymentId: string
  /** Where settings came from, by setting name; unlisted ones are reported as defaults or unset. */
  readonly valueSources: Readonly<Partial<Record<string, SettingSource>>>
}

export const defaultSettings: SettingsShape = {
  ...(Object.fromEntries(settingsList.map(([key, s]) => [key, s.default])) as Record<
    SettingKey,
    unknown
  > as SettingValues),
  version: "v0.1.0",
  deploymentId: "00000000-0000-4000-8000-000000000000",
  valueSources: {}
}

export class Settings extends Context.Tag("@workbay/core/Settings")<Settings, SettingsShape>() {
  static readonly layer = (overrides: Partial<SettingsShape> = {}) =>
    Layer.succeed(Settings, { ...defaultSettings, ...overrides })
}
