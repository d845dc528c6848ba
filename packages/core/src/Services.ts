/** All core services in one layer, built on the repository and platform ports. */
import { Layer } from "effect"
import { Auth } from "./users/Auth.js"
import { AuditLogs } from "./audit/AuditLogs.js"
import { Groups } from "./groups/Groups.js"
import { Deployment } from "./general/Deployment.js"
import { Organizations } from "./organizations/Organizations.js"
import { Users } from "./users/Users.js"
import { Retention } from "./audit/Retention.js"
import { Files } from "./templates/Files.js"
import { HangDetector, ProvisionerJobs } from "./templates/ProvisionerJobs.js"
import { TemplateVersions } from "./templates/TemplateVersions.js"

/** Every service; needs the repository ports, `Settings`, `PasswordHasher`, `MailSender`, `IdGenerator` and `Provisioners`. */
export const ServicesLive = Layer.mergeAll(
  Auth.Default, Organizations.Default, Deployment.Default, Users.Default, Groups.Default, AuditLogs.Default,
  Retention.Default, Files.Default, ProvisionerJobs.Default, HangDetector.Default, TemplateVersions.Default
)
