/** @workbay/core: domain models, rules, services, typed errors and repository ports. */
// Shared machinery: errors, ids, the actor and the one authorization evaluator, audit collection, ports.
export * from "./Actor.js"
export * from "./Audit.js"
export * from "./Errors.js"
export * from "./Ids.js"
export * from "./Platform.js"
export * as Rbac from "./Rbac.js"
export * from "./Repositories.js"
export * from "./SearchQuery.js"
export * from "./Services.js"
export * from "./Settings.js"
export * from "./Wire.js"
// users: accounts, sessions and API keys, passwords, git SSH keys, quiet hours
export * from "./users/ApiKey.js"
export * from "./users/Auth.js"
export * from "./users/GitSshKey.js"
export * from "./users/Passwords.js"
export * from "./users/Repositories.js"
export * from "./users/User.js"
export * from "./users/Users.js"
// organizations and their members
export * from "./organizations/Organization.js"
export * from "./organizations/Organizations.js"
export * from "./organizations/Repositories.js"
// groups, quotas, AI budgets
export * from "./groups/Group.js"
export * from "./groups/Groups.js"
// templates: uploaded files, archives, the provisioner port and the built-in `workbay` provisioner
export * from "./templates/Archive.js"
export * from "./templates/File.js"
export * from "./templates/Files.js"
export * from "./templates/Provisioner.js"
export { parseTemplate, TemplateSpec } from "./templates/TemplateFile.js"
export * from "./templates/WorkbayProvisioner.js"
// audit and connection logs, retention
export * from "./audit/AuditLog.js"
export * from "./audit/AuditLogs.js"
export * from "./audit/ConnectionLog.js"
export * from "./audit/Retention.js"
// general: build info, deployment records and configuration
export * from "./general/BuildInfo.js"
export * from "./general/Deployment.js"
export * from "./general/DeploymentConfig.js"
