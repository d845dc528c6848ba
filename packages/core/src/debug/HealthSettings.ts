/**
 * The health report's settings (`/debug/health/settings`): the sections an owner dismissed.
 * The report and its checks are `Health.ts`.
 */
import { Schema } from "effect"

/** The report's sections as the settings name them (the described system's `healthsdk.HealthSection`). */
export const HEALTH_SECTIONS = [
  "DERP",
  "AccessURL",
  "Websocket",
  "Database",
  "WorkspaceProxy",
  "ProvisionerDaemons"
] as const

export const HealthSection = Schema.Literal(...HEALTH_SECTIONS).annotations({
  identifier: "HealthSection",
  message: (issue) => ({
    message: `Unknown health check section ${JSON.stringify(issue.actual)}: one of ${HEALTH_SECTIONS.join(", ")}.`,
    override: true
  })
})
export type HealthSection = typeof HealthSection.Type

/** The described system's `healthsdk.HealthSettings`: the sections left out of the overall health. */
export class HealthSettings extends Schema.Class<HealthSettings>("HealthSettings")({
  dismissed_healthchecks: Schema.Array(HealthSection)
}) {}
