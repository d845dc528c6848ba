/** All core services in one layer, built on the repository and platform ports. */
import { Layer } from "effect"
import { Auth } from "./Auth.js"
import { AuditLogs } from "./AuditLogs.js"
import { Groups } from "./Groups.js"
import { Deployment } from "./Deployment.js"
import { Organizations } from "./Organizations.js"
import { Users } from "./Users.js"
import { Retention } from "./Retention.js"

/** Every service; needs the repository ports, `Settings`, `PasswordHasher`, `MailSender` and `IdGenerator`. */
export const ServicesLive = Layer.mergeAll(
  Auth.Default, Organizations.Default, Deployment.Default, Users.Default, Groups.Default, AuditLogs.Default,
  Retention.Default
)
