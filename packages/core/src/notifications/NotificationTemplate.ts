/**
 * Notification templates: the wire records (codersdk `NotificationTemplate`,
 * `NotificationPreference`, `NotificationMethodsResponse`, `NotificationsSettings`), the
 * delivery methods, and the system catalog. The catalog lives in code, with the described
 * system's template ids, names, groups and texts, so that clients and users find the same
 * templates; only a deployment's method override and users' preferences are stored.
 *
 * The described system writes its templates in Go's template language (`{{.Labels.name}}`);
 * they are translated once, here, into Handlebars (`{{labels.name}}`), which renders them
 * (Render.ts). What a template sees: `labels` and `data` (the message's payload),
 * `user_name`, `user_username`, `user_email` (the recipient) and `base_url` (the access URL).
 */
import { Schema } from "effect"

/** The delivery methods (the described system's `notification_method`). */
export const notificationMethods = ["smtp", "webhook", "inbox"] as const
export type NotificationMethod = (typeof notificationMethods)[number]
export const isNotificationMethod = (s: string): s is NotificationMethod =>
  (notificationMethods as ReadonlyArray<string>).includes(s)

/** A notification template as the API answers it; `method` is `""` when the deployment default applies. */
export class NotificationTemplate extends Schema.Class<NotificationTemplate>("NotificationTemplate")({
  id: Schema.UUID,
  name: Schema.String,
  title_template: Schema.String,
  body_template: Schema.String,
  /** The action buttons, a JSON array of `{label, url}` (url a template too), as text. */
  actions: Schema.String,
  group: Schema.String,
  method: Schema.String,
  kind: Schema.String,
  enabled_by_default: Schema.Boolean
}) {}

/** One stored preference of a user: a template they turned off (or back on). */
export class NotificationPreference extends Schema.Class<NotificationPreference>("NotificationPreference")({
  id: Schema.UUID,
  disabled: Schema.Boolean,
  updated_at: Schema.Date
}) {}

/** GET /notifications/dispatch-methods. */
export class NotificationMethodsResponse
  extends Schema.Class<NotificationMethodsResponse>("NotificationMethodsResponse")({
    available: Schema.Array(Schema.String),
    default: Schema.String
  })
{}

/** GET and PUT /notifications/settings. */
export class NotificationsSettings extends Schema.Class<NotificationsSettings>("NotificationsSettings")({
  notifier_paused: Schema.Boolean
}) {}

/** An action button: a label and a URL template. */
export interface TemplateAction {
  readonly label: string
  readonly url: string
}

/** A template of the catalog. */
export interface TemplateDefinition {
  readonly id: string
  readonly name: string
  /** Handlebars. */
  readonly title: string
  /** Handlebars, rendering markdown. */
  readonly body: string
  readonly actions: ReadonlyArray<TemplateAction>
  readonly group: string
  readonly kind: "system" | "custom"
  readonly enabledByDefault: boolean
  /** The template's own method (the described system's template `method` column), before any deployment override. */
  readonly method?: NotificationMethod | undefined
  /** Whether it also goes to the inbox (when the inbox is on). Default true. */
  readonly inbox?: boolean | undefined
  /** Sent whatever the user's preferences (a one-time passcode). */
  readonly required?: boolean | undefined
}

/** Template ids of the described system (its `coderd/notifications/events.go`). */
export const TemplateIds = {
  workspaceCreated: "281fdf73-c6d6-4cbb-8ff5-888baf8a2fff",
  workspaceManuallyUpdated: "d089fe7b-d5c5-4c0c-aaf5-689859f7d392",
  workspaceDeleted: "f517da0b-cdc9-410f-ab89-a86107c420ed",
  workspaceAutobuildFailed: "381df2a9-c0c0-4749-420f-80a9280c66f9",
  workspaceDormant: "0ea69165-ec14-4314-91f1-69566ac3c5a0",
  workspaceAutoUpdated: "c34a0c09-0704-4cac-bd1c-0c0146811c2b",
  workspaceMarkedForDeletion: "51ce2fdf-c9ca-4be1-8d70-628674f9bc42",
  workspaceManualBuildFailed: "2faeee0f-26cb-4e96-821c-85ccb9f71513",
  workspaceOutOfMemory: "a9d027b4-ac49-4fb1-9f6d-45af15f64e7a",
  workspaceOutOfDisk: "f047f6a3-5713-40f7-85aa-0394cce9fa3a",
  userAccountCreated: "4e19c0ac-94e1-4532-9515-d1801aa283b2",
  userAccountDeleted: "f44d9314-ad03-4bc8-95d0-5cad491da6b6",
  userAccountSuspended: "b02ddd82-4733-4d02-a2d7-c36f3598997d",
  userAccountActivated: "9f5af851-8408-4e73-a7a1-c6502ba46689",
  yourAccountSuspended: "6a2f0609-9b69-4d36-a989-9f5925b6cbff",
  yourAccountActivated: "1a6a6bea-ee0a-43e2-9e7c-eabdb53730e4",
  templateDeleted: "29a09665-2a4c-403f-9648-54301670e7be",
  templateDeprecated: "f40fae84-55a2-42cd-99fa-b41c1ca64894",
  prebuildFailureLimitReached: "414d9331-c1fc-4761-b40c-d1f4702279eb",
  taskWorking: "bd4b7168-d05e-4e19-ad0f-3593b77aa90f",
  taskIdle: "d4a6271c-cced-4ed0-84ad-afd02a9c7799",
  taskCompleted: "8c5a4d12-9f7e-4b3a-a1c8-6e4f2d9b5a7c",
  taskPaused: "2a74f3d3-ab09-4123-a4a5-ca238f4f65a1",
  testNotification: "c425f63e-716a-4bf4-ae24-78348f706c3f",
  oneTimePasscode: "62f86a30-2330-4b61-a26d-311ff3b608cf",
  customNotification: "39b1e189-c857-4b0c-877a-511144c18516",
  // Workbay's own (the events the described system has no template for; docs/notifications.md)
  workspaceAutostopped: "7b73f0d6-d9f3-4228-836f-77fc9112a85d",
  workspaceOutOfQuota: "3c62daa6-ae7e-424a-867e-0abc429b9759",
  templateVersionBuildFailed: "09b5bf0c-6564-4793-8240-76779643aac9"
} as const

const viewWorkspace: TemplateAction = {
  label: "View workspace",
  url: "{{base_url}}/@{{user_username}}/{{labels.name}}"
}
const taskActions: ReadonlyArray<TemplateAction> = [
  { label: "View task", url: "{{base_url}}/tasks/{{user_username}}/{{labels.workspace}}" },
  { label: "View workspace", url: "{{base_url}}/@{{user_username}}/{{labels.workspace}}" }
]
const viewActiveAccounts: TemplateAction = {
  label: "View accounts",
  url: "{{base_url}}/deployment/users?filter=status%3Aactive"
}

const system = (
  id: string,
  name: string,
  group: string,
  title: string,
  body: string,
  actions: ReadonlyArray<TemplateAction>,
  enabledByDefault = true,
  extra: Pick<TemplateDefinition, "method" | "inbox" | "required"> = {}
): TemplateDefinition => ({ id, name, group, title, body, actions, kind: "system", enabledByDefault, ...extra })

/** The system templates, in the described system's words. */
export const systemTemplates: ReadonlyArray<TemplateDefinition> = [
  // Workspace events
  system(
    TemplateIds.workspaceCreated,
    "Workspace Created",
    "Workspace Events",
    "Workspace '{{labels.workspace}}' has been created",
    "The workspace **{{labels.workspace}}** has been created from the template **{{labels.template}}** using version **{{labels.version}}**.",
    [{ label: "View workspace", url: "{{base_url}}/@{{labels.workspace_owner_username}}/{{labels.workspace}}" }]
  ),
  system(
    TemplateIds.workspaceManuallyUpdated,
    "Workspace Manually Updated",
    "Workspace Events",
    "Workspace '{{labels.workspace}}' has been manually updated",
    "A new workspace build has been manually created for your workspace **{{labels.workspace}}** by **{{labels.initiator}}** to update it to version **{{labels.version}}** of template **{{labels.template}}**.",
    [
      { label: "View workspace", url: "{{base_url}}/@{{labels.workspace_owner_username}}/{{labels.workspace}}" },
      {
        label: "View template version",
        url: "{{base_url}}/templates/{{labels.organization}}/{{labels.template}}/versions/{{labels.version}}"
      }
    ]
  ),
  system(
    TemplateIds.workspaceDeleted,
    "Workspace Deleted",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" deleted",
    "Your workspace **{{labels.name}}** was deleted.\n\nThe specified reason was \"**{{labels.reason}}{{#if labels.initiator}} ({{labels.initiator}}){{/if}}**\".",
    [{ label: "View workspaces", url: "{{base_url}}/workspaces" }, {
      label: "View templates",
      url: "{{base_url}}/templates"
    }]
  ),
  system(
    TemplateIds.workspaceAutobuildFailed,
    "Workspace Autobuild Failed",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" autobuild failed",
    "Automatic build of your workspace **{{labels.name}}** failed.\n\nThe specified reason was \"**{{labels.reason}}**\".",
    [viewWorkspace]
  ),
  system(
    TemplateIds.workspaceDormant,
    "Workspace Marked as Dormant",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" marked as dormant",
    "Your workspace **{{labels.name}}** has been marked as **dormant** due to {{labels.reason}}.{{#if labels.timeTilDormant}}\n\nThis workspace will be automatically deleted in {{labels.timeTilDormant}} if it remains inactive.{{/if}}\n\nTo prevent deletion, activate your workspace using the link below.",
    [viewWorkspace]
  ),
  system(
    TemplateIds.workspaceAutoUpdated,
    "Workspace Updated Automatically",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" updated automatically",
    "Your workspace **{{labels.name}}** has been updated automatically to the latest template version ({{labels.template_version_name}}).\n\nReason for update: **{{labels.template_version_message}}**.",
    [viewWorkspace]
  ),
  system(
    TemplateIds.workspaceMarkedForDeletion,
    "Workspace Marked for Deletion",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" marked for deletion",
    "Your workspace **{{labels.name}}** has been marked for **deletion** after {{labels.timeTilDormant}} of dormancy because of {{labels.reason}}.\nTo prevent deletion, use your workspace with the link below.",
    [viewWorkspace]
  ),
  system(
    TemplateIds.workspaceManualBuildFailed,
    "Workspace Manual Build Failed",
    "Template Events",
    "Workspace \"{{labels.name}}\" manual build failed",
    "A manual build of the workspace **{{labels.name}}** using the template **{{labels.template_name}}** failed (version: **{{labels.template_version_name}}**).\n\nThe workspace build was initiated by **{{labels.initiator}}**.",
    [{
      label: "View build",
      url: "{{base_url}}/@{{labels.workspace_owner_username}}/{{labels.name}}/builds/{{labels.workspace_build_number}}"
    }]
  ),
  system(
    TemplateIds.workspaceOutOfMemory,
    "Workspace Out Of Memory",
    "Workspace Events",
    "Your workspace \"{{labels.workspace}}\" is low on memory",
    "Your workspace **{{labels.workspace}}** has reached the memory usage threshold set at **{{labels.threshold}}**.",
    [{ label: "View workspace", url: "{{base_url}}/@{{user_username}}/{{labels.workspace}}" }]
  ),
  system(
    TemplateIds.workspaceOutOfDisk,
    "Workspace Out Of Disk",
    "Workspace Events",
    "Your workspace \"{{labels.workspace}}\" is low on volume space",
    "Volume **`{{labels.volume}}`** is over {{labels.threshold}} full in workspace **{{labels.workspace}}**.",
    [{ label: "View workspace", url: "{{base_url}}/@{{user_username}}/{{labels.workspace}}" }]
  ),
  system(
    TemplateIds.workspaceAutostopped,
    "Workspace Autostopped",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" stopped automatically",
    "Your workspace **{{labels.name}}** was stopped automatically because of {{labels.reason}}.\n\nStart it again with the link below.",
    [viewWorkspace]
  ),
  system(
    TemplateIds.workspaceOutOfQuota,
    "Workspace Out of Quota",
    "Workspace Events",
    "Workspace \"{{labels.name}}\" is out of quota",
    "A build of your workspace **{{labels.name}}** was refused: it would cost **{{labels.cost}}** credits a day, and **{{labels.budget}}** of your quota in organization **{{labels.organization}}** remain.\n\nStop or delete other workspaces, or ask an administrator for a larger quota.",
    [viewWorkspace]
  ),
  // User events
  system(
    TemplateIds.userAccountCreated,
    "User account created",
    "User Events",
    "User account \"{{labels.created_account_name}}\" created",
    "New user account **{{labels.created_account_name}}** has been created.\n\nThis new user account was created {{#if labels.created_account_user_name}}for **{{labels.created_account_user_name}}** {{/if}}by **{{labels.initiator}}**.",
    [viewActiveAccounts]
  ),
  system(
    TemplateIds.userAccountDeleted,
    "User account deleted",
    "User Events",
    "User account \"{{labels.deleted_account_name}}\" deleted",
    "User account **{{labels.deleted_account_name}}** has been deleted.\n\nThe deleted account {{#if labels.deleted_account_user_name}}belonged to **{{labels.deleted_account_user_name}}** and {{/if}}was deleted by **{{labels.initiator}}**.",
    [viewActiveAccounts]
  ),
  system(
    TemplateIds.userAccountSuspended,
    "User account suspended",
    "User Events",
    "User account \"{{labels.suspended_account_name}}\" suspended",
    "User account **{{labels.suspended_account_name}}** has been suspended.\n\nThe account {{#if labels.suspended_account_user_name}}belongs to **{{labels.suspended_account_user_name}}** and it {{/if}}was suspended by **{{labels.initiator}}**.",
    [{ label: "View suspended accounts", url: "{{base_url}}/deployment/users?filter=status%3Asuspended" }]
  ),
  system(
    TemplateIds.userAccountActivated,
    "User account activated",
    "User Events",
    "User account \"{{labels.activated_account_name}}\" activated",
    "User account **{{labels.activated_account_name}}** has been activated.\n\nThe account {{#if labels.activated_account_user_name}}belongs to **{{labels.activated_account_user_name}}** and it {{/if}}was activated by **{{labels.initiator}}**.",
    [viewActiveAccounts]
  ),
  system(
    TemplateIds.yourAccountSuspended,
    "Your account has been suspended",
    "User Events",
    "Your account \"{{labels.suspended_account_name}}\" has been suspended",
    "Your account **{{labels.suspended_account_name}}** has been suspended by **{{labels.initiator}}**.",
    []
  ),
  system(
    TemplateIds.yourAccountActivated,
    "Your account has been activated",
    "User Events",
    "Your account \"{{labels.activated_account_name}}\" has been activated",
    "Your account **{{labels.activated_account_name}}** has been activated by **{{labels.initiator}}**.",
    [{ label: "Open Workbay", url: "{{base_url}}" }]
  ),
  system(
    TemplateIds.oneTimePasscode,
    "One-Time Passcode",
    "User Events",
    "Your One-Time Passcode",
    "A request to reset the password for your account has been made. Your one-time passcode is:\n\n**{{labels.one_time_passcode}}**\n\nIt expires in {{labels.expires_in}}. If you did not request to reset your password, you can ignore this message.",
    [],
    true,
    { method: "smtp", inbox: false, required: true }
  ),
  // Template events
  system(
    TemplateIds.templateDeleted,
    "Template Deleted",
    "Template Events",
    "Template \"{{labels.name}}\" deleted",
    "The template **{{labels.name}}** was deleted by **{{labels.initiator}}**.\n\n",
    [{ label: "View templates", url: "{{base_url}}/templates" }]
  ),
  system(
    TemplateIds.templateDeprecated,
    "Template Deprecated",
    "Template Events",
    "Template '{{labels.template}}' has been deprecated",
    "The template **{{labels.template}}** has been deprecated with the following message:\n\n**{{labels.message}}**\n\nNew workspaces may not be created from this template. Existing workspaces will continue to function normally.",
    [
      {
        label: "See affected workspaces",
        url: "{{base_url}}/workspaces?filter=owner%3Ame+template%3A{{labels.template}}"
      },
      { label: "View template", url: "{{base_url}}/templates/{{labels.organization}}/{{labels.template}}" }
    ]
  ),
  system(
    TemplateIds.templateVersionBuildFailed,
    "Template Version Build Failed",
    "Template Events",
    "Template version \"{{labels.template_version_name}}\" failed to build",
    "The import of the template version **{{labels.template_version_name}}**{{#if labels.template_name}} of the template **{{labels.template_name}}**{{/if}} failed.\n\nThe error was \"**{{labels.reason}}**\".",
    [{
      label: "View template version",
      url:
        "{{base_url}}/templates/{{labels.organization}}/{{labels.template_name}}/versions/{{labels.template_version_name}}"
    }]
  ),
  system(
    TemplateIds.prebuildFailureLimitReached,
    "Prebuild Failure Limit Reached",
    "Template Events",
    "There is a problem creating prebuilt workspaces",
    "The number of failed prebuild attempts has reached the hard limit for template **{{labels.template}}** and preset **{{labels.preset}}**.\n\nTo resume prebuilds, fix the underlying issue and upload a new template version.\n\nRefer to the documentation for more details:\n- [Troubleshooting templates](https://coder.com/docs/admin/templates/troubleshooting)\n- [Troubleshooting of prebuilt workspaces](https://coder.com/docs/admin/templates/extending-templates/prebuilt-workspaces#administration-and-troubleshooting)",
    [
      {
        label: "View failed prebuilt workspaces",
        url: "{{base_url}}/workspaces?filter=owner:prebuilds+status:failed+template:{{labels.template}}"
      },
      {
        label: "View template version",
        url: "{{base_url}}/templates/{{labels.org}}/{{labels.template}}/versions/{{labels.template_version}}"
      }
    ]
  ),
  // Task events
  system(
    TemplateIds.taskWorking,
    "Task Working",
    "Task Events",
    "Task '{{labels.workspace}}' is working",
    "The task '{{labels.task}}' transitioned to a working state.",
    taskActions,
    false
  ),
  system(
    TemplateIds.taskIdle,
    "Task Idle",
    "Task Events",
    "Task '{{labels.workspace}}' is idle",
    "The task '{{labels.task}}' is idle and ready for input.",
    taskActions
  ),
  system(
    TemplateIds.taskCompleted,
    "Task Completed",
    "Task Events",
    "Task '{{labels.workspace}}' completed",
    "The task '{{labels.task}}' has completed successfully.",
    taskActions
  ),
  system(
    TemplateIds.taskPaused,
    "Task Paused",
    "Task Events",
    "Task '{{labels.workspace}}' is paused",
    "The task '{{labels.task}}' was paused ({{labels.pause_reason}}).",
    taskActions
  ),
  // Notification events
  system(
    TemplateIds.testNotification,
    "Test Notification",
    "Notification Events",
    "A test notification",
    "This is a test notification.",
    [{ label: "View notification settings", url: "{{base_url}}/deployment/notifications?tab=settings" }]
  )
]

/** The one custom template: a title and a message given by the sender (POST /notifications/custom). */
export const customTemplate: TemplateDefinition = {
  id: TemplateIds.customNotification,
  name: "Custom Notification",
  group: "Custom Events",
  title: "{{labels.custom_title}}",
  body: "{{labels.custom_message}}",
  actions: [],
  kind: "custom",
  enabledByDefault: true
}

const byId: ReadonlyMap<string, TemplateDefinition> = new Map(
  [...systemTemplates, customTemplate].map((t) => [t.id, t])
)

/** The template of `id`, system or custom. */
export const findTemplate = (id: string): TemplateDefinition | undefined => byId.get(id.toLowerCase())

/** The wire form of a template with its deployment-wide method override (`""`: none). */
export const toNotificationTemplate = (t: TemplateDefinition, method: string): NotificationTemplate =>
  new NotificationTemplate({
    id: t.id,
    name: t.name,
    title_template: t.title,
    body_template: t.body,
    actions: JSON.stringify(t.actions),
    group: t.group,
    method,
    kind: t.kind,
    enabled_by_default: t.enabledByDefault
  }, true)
