/**
 * The groups options are shown in, as the described system groups its deployment options
 * (plus "General" for the options it leaves at the top level). A group's `parent` is absent at
 * the top level; empty fields are absent.
 */
import type { Types } from "effect"
import { putNonEmpty } from "../Wire.js"

export interface OptionGroup {
  readonly name?: string
  readonly description?: string
  readonly yaml?: string
  readonly parent?: OptionGroup
}

const group = (name: string, yaml: string, description = "", parent?: OptionGroup): OptionGroup => {
  const g: Types.Mutable<OptionGroup> = { name }
  putNonEmpty(g, "description", description)
  putNonEmpty(g, "yaml", yaml)
  if (parent !== undefined) g.parent = parent
  return g
}

export const general = group("General", "", "Settings of the deployment as a whole.")
export const networking = group("Networking", "networking")
export const networkingHttp = group("HTTP", "http", "", networking)
export const networkingTls = group(
  "TLS",
  "tls",
  "Configure TLS / HTTPS for your deployment. If you're running it behind a TLS-terminating reverse proxy or are accessing it over a secure link, you can safely ignore these settings.",
  networking
)
export const database = group("Database", "database", "Where the deployment stores its data.")
export const introspection = group(
  "Introspection",
  "introspection",
  "Configure logging, tracing, and metrics exporting."
)
export const logging = group("Logging", "logging", "", introspection)
export const tracing = group("Tracing", "tracing", "", introspection)
export const prometheus = group("Prometheus", "prometheus", "", introspection)
export const oauth2 = group("OAuth2", "oauth2", "Configure login and user-provisioning with GitHub via oAuth2.")
export const oauth2Github = group("GitHub", "github", "", oauth2)
export const oidc = group("OIDC", "oidc")
export const telemetry = group(
  "Telemetry",
  "telemetry",
  "Telemetry is critical to our ability to improve the product. Please only disable telemetry when required by your organization's security policy."
)
export const provisioning = group(
  "Provisioning",
  "provisioning",
  "Tune the behavior of the provisioner, which is responsible for creating, updating, and deleting workspace resources."
)
export const docker = group(
  "Docker",
  "docker",
  "The docker provisioner: workspaces as containers on a Docker Engine (Workbay's own; docs/docker.md).",
  provisioning
)
export const retention = group("Retention", "retention", "Configure how long data is kept before it is deleted.")
export const quietHours = group(
  "User Quiet Hours Schedule",
  "userQuietHoursSchedule",
  "Allow users to set quiet hours schedules each day for workspaces to avoid workspaces stopping during the day due to template scheduling."
)
export const client = group(
  "Client",
  "client",
  "These options change the behavior of how clients interact with the deployment. Clients include the CLI, the VS Code extension, and the web UI."
)
export const notifications = group(
  "Notifications",
  "notifications",
  "Configure how notifications are processed and delivered."
)
export const notificationsEmail = group("Email", "email", "Configure how email notifications are sent.", notifications)
export const notificationsEmailAuth = group(
  "Email Authentication",
  "emailAuth",
  "Configure SMTP authentication options.",
  notificationsEmail
)
export const inbox = group("Inbox", "inbox", "", notifications)
export const notificationsEmailTls = group(
  "Email TLS",
  "emailTLS",
  "Configure TLS for your SMTP server target.",
  notificationsEmail
)
export const notificationsWebhook = group("Webhook", "webhook", "", notifications)
export const instanceIdentity = group(
  "Instance Identity",
  "instanceIdentity",
  "Trust roots of the signed documents agents on cloud instances exchange for their token."
)
