/** All core services in one layer, built on the repository and platform ports. */
import { Effect, Layer } from "effect"
import { AgentAuth } from "./agents/AgentAuth.js"
import { Agents } from "./agents/Agents.js"
import { AppProxy } from "./agents/AppProxy.js"
import { AppStatuses } from "./agents/AppStatus.js"
import { AgentConnectionMonitor } from "./agents/Connection.js"
import { AgentConnections } from "./agents/Connections.js"
import { ConnectionWatch } from "./agents/ConnectionWatch.js"
import { AgentContainers } from "./agents/Containers.js"
import { Coordinator } from "./agents/Coordinator.js"
import { agentInitScriptsLayer } from "./agents/InitScript.js"
import { InstanceIdentity } from "./agents/InstanceIdentity.js"
import { AgentListeningPorts } from "./agents/ListeningPorts.js"
import { AgentLogs } from "./agents/Logs.js"
import { AgentManifests } from "./agents/Manifest.js"
import { AgentMetadataWatch } from "./agents/MetadataWatch.js"
import { AgentReinit } from "./agents/Reinit.js"
import { RelayMap } from "./agents/RelayMap.js"
import { AgentReportBatch } from "./agents/ReportBatch.js"
import { AgentReports } from "./agents/Reports.js"
import { AgentStreams } from "./agents/Streams.js"
import { AgentTunnels } from "./agents/Tunnels.js"
import { Applications } from "./applications/Applications.js"
import { AuditEntries } from "./Audit.js"
import { AuditLogRepo } from "./audit/AuditLog.js"
import { AuditLogs, connectionLogSinkLayer } from "./audit/AuditLogs.js"
import { Retention } from "./audit/Retention.js"
import { AuthCheck } from "./AuthCheck.js"
import { Health } from "./debug/Health.js"
import { Appearance } from "./enterprise/Appearance.js"
import { Licensing } from "./enterprise/Entitlements.js"
import { Licenses } from "./enterprise/Licenses.js"
import { Replicas } from "./enterprise/Replicas.js"
import { Events } from "./Events.js"
import { ExternalAuth } from "./externalauth/ExternalAuth.js"
import { GithubSignIn } from "./externalauth/GithubSignIn.js"
import { IdpSync } from "./externalauth/IdpSync.js"
import { OidcSignIn } from "./externalauth/OidcSignIn.js"
import { SignIn } from "./externalauth/SignIn.js"
import { Deployment } from "./general/Deployment.js"
import { Groups } from "./groups/Groups.js"
import { userMembershipsLayer } from "./groups/UserMemberships.js"
import { buildDurationsLayer } from "./insights/Insight.js"
import { Insights } from "./insights/Insights.js"
import { InsightsRollup } from "./insights/Rollup.js"
import { InboxDeliveryLive, InboxNotifications } from "./notifications/InboxNotifications.js"
import { NotificationListener } from "./notifications/Listener.js"
import { NotificationQueue } from "./notifications/NotificationQueue.js"
import { Notifications } from "./notifications/Notifications.js"
import { OAuth2Apps } from "./oauth2/OAuth2Apps.js"
import { OAuth2Provider } from "./oauth2/OAuth2Provider.js"
import { OAuth2Settings } from "./oauth2/OAuth2Settings.js"
import { Organizations } from "./organizations/Organizations.js"
import { JobSignal } from "./provisioners/JobSignal.js"
import { Placement } from "./provisioners/Placement.js"
import { ProvisionerDaemons } from "./provisioners/ProvisionerDaemons.js"
import { ProvisionerHosts } from "./provisioners/ProvisionerHosts.js"
import type { ProvisionerJobRecord } from "./provisioners/ProvisionerJob.js"
import { HangDetector, ProvisionerJobs } from "./provisioners/ProvisionerJobs.js"
import { ProvisionerJobViews } from "./provisioners/ProvisionerJobViews.js"
import { ProvisionerKeys } from "./provisioners/ProvisionerKeys.js"
import { type JobContext, JobExecutors } from "./provisioners/Worker.js"
import { ProxyHealth } from "./proxies/ProxyHealth.js"
import { WorkspaceProxies } from "./proxies/WorkspaceProxies.js"
import type { Settings } from "./Settings.js"
import { agentTaskLogLayer, TaskConversation } from "./tasks/Conversation.js"
import { taskPromptsLayer } from "./tasks/Task.js"
import { Tasks } from "./tasks/Tasks.js"
import { Files } from "./templates/Files.js"
import { templateAcl, type TemplateRepo } from "./templates/Template.js"
import { Templates } from "./templates/Templates.js"
import { templateVersionExecutors, type TemplateVersionExecutorServices } from "./templates/TemplateVersionExecutors.js"
import { TemplateVersions } from "./templates/TemplateVersions.js"
import { Auth } from "./users/Auth.js"
import { Users } from "./users/Users.js"
import { WorkspaceActivity } from "./workspaces/Activity.js"
import { AutofillParameters } from "./workspaces/Autofill.js"
import { LifecycleExecutor } from "./workspaces/Lifecycle.js"
import { lifecycleActionsLayer } from "./workspaces/LifecycleActions.js"
import { PortShares, templateWorkspacesLayer } from "./workspaces/PortShares.js"
import { PrebuildsReconciler } from "./workspaces/Prebuilds.js"
import { WorkspaceQuotas } from "./workspaces/Quotas.js"
import { WorkspaceSharing } from "./workspaces/Sharing.js"
import { WorkspaceWatch } from "./workspaces/Watch.js"
import { workspaceAcl, type WorkspaceRepo } from "./workspaces/Workspace.js"
import { workspaceBuildExecutor, type WorkspaceBuildExecutorServices } from "./workspaces/WorkspaceBuildExecutor.js"
import { WorkspaceBuilds } from "./workspaces/WorkspaceBuilds.js"
import {
  workspaceMoveExecutor,
  type WorkspaceMoveExecutorServices,
  WorkspaceMoves
} from "./workspaces/WorkspaceMoves.js"
import { Workspaces } from "./workspaces/Workspaces.js"
import { WorkspaceSchedules } from "./workspaces/WorkspaceSchedules.js"

/**
 * The bus of the areas' events (Events.ts) with its listeners subscribed, below every service
 * that publishes, so no event is published before its listeners are there.
 */
const notifications = Layer.merge(Notifications.Default, NotificationListener).pipe(
  Layer.provideMerge(NotificationQueue.Default),
  Layer.provideMerge(Events.layer)
)

/** The request path's audit entries go to the audit area's store. */
const auditEntries = Layer.effect(
  AuditEntries,
  Effect.map(AuditLogRepo, (repo) => AuditEntries.of({ insert: repo.insert }))
)

/**
 * The ports an area declares and an area above it gives (docs/architecture.md, "Dependency
 * order"), below every service.
 */
const ports = Layer.mergeAll(
  auditEntries,
  taskPromptsLayer,
  agentInitScriptsLayer,
  buildDurationsLayer,
  templateWorkspacesLayer,
  userMembershipsLayer
)

const services = Layer.mergeAll(
  Auth.Default,
  AuthCheck.layer<TemplateRepo | WorkspaceRepo | Settings>([templateAcl, workspaceAcl]),
  Organizations.Default,
  Deployment.Default,
  Users.Default,
  Groups.Default,
  AuditLogs.Default,
  Retention.Default,
  Files.Default,
  ProvisionerJobs.Default,
  HangDetector.Default,
  JobSignal.Default,
  ProvisionerDaemons.Default,
  JobExecutors.Default,
  Templates.Default,
  WorkspaceSharing.Default
).pipe(Layer.provideMerge(notifications), Layer.provideMerge(ports))

const views = Placement.Default.pipe(
  Layer.provideMerge(Layer.mergeAll(ProvisionerJobViews.Default, ProvisionerKeys.Default, ProvisionerHosts.Default)),
  Layer.provideMerge(services)
)

const templateVersions = TemplateVersions.Default.pipe(Layer.provideMerge(views))

const workspaces = Layer.mergeAll(WorkspaceSchedules.Default, LifecycleExecutor.Default, PrebuildsReconciler.Default)
  .pipe(
    Layer.provideMerge(lifecycleActionsLayer),
    Layer.provideMerge(
      Layer.mergeAll(
        Workspaces.Default,
        PortShares.Default,
        AutofillParameters.Default,
        WorkspaceQuotas.Default,
        WorkspaceMoves.Default,
        WorkspaceActivity.Default
      )
    ),
    Layer.provideMerge(WorkspaceBuilds.Default),
    Layer.provideMerge(templateVersions)
  )

const watch = Layer.mergeAll(
  WorkspaceWatch.Default,
  Agents.Default,
  AgentAuth.Default,
  InstanceIdentity.Default,
  AgentConnectionMonitor.Default,
  AgentMetadataWatch.Default,
  AgentReinit.Default
).pipe(
  Layer.provideMerge(AgentManifests.Default),
  Layer.provideMerge(RelayMap.Default),
  Layer.provideMerge(AgentReports.Default),
  Layer.provideMerge(AgentReportBatch.buffer.pipe(Layer.provideMerge(AgentReportBatch.Default))),
  Layer.provideMerge(agentTaskLogLayer),
  Layer.provideMerge(TaskConversation.Default),
  Layer.provideMerge(workspaces)
)

const tailnet = Layer.mergeAll(ConnectionWatch.Default, Coordinator.Default).pipe(Layer.provideMerge(watch))

/** What reaches an agent through its connection: apps, listening ports, streams, here or relayed to the replica that holds it. */
const appProxy = Layer.mergeAll(
  AppProxy.Default,
  AgentListeningPorts.Default,
  AgentContainers.Default,
  AgentStreams.Default
).pipe(
  Layer.provideMerge(Layer.merge(AgentTunnels.Default, Replicas.Default))
)

const agentReports = Layer.mergeAll(AgentLogs.Default, AppStatuses.Default, AgentConnections.Default, appProxy).pipe(
  Layer.provideMerge(connectionLogSinkLayer),
  Layer.provideMerge(tailnet)
)

const tasks = Tasks.Default.pipe(Layer.provideMerge(agentReports))

/**
 * The executors of provisioner job types (`JobExecutors.register(...)` layers), built after
 * the services they use and before any worker starts. Each area adds its layer here.
 */
const jobExecutors = Layer.mergeAll(
  JobExecutors.registerEffect(
    Effect.map(Effect.context<TemplateVersionExecutorServices>(), (context) =>
      Object.fromEntries(
        Object.entries(templateVersionExecutors).map(([type, run]) => [
          type,
          (job: ProvisionerJobRecord, ctx: JobContext) =>
            Effect.provide(run!(job, { provisioner: ctx.provisioner, onLog: ctx.log }), context)
        ])
      ))
  ),
  JobExecutors.registerEffect(Effect.map(Effect.context<WorkspaceBuildExecutorServices>(), (context) => ({
    workspace_build: (job: ProvisionerJobRecord, ctx: JobContext) =>
      Effect.provide(workspaceBuildExecutor(job, { provisioner: ctx.provisioner, onLog: ctx.log }), context)
  }))),
  JobExecutors.registerEffect(Effect.map(Effect.context<WorkspaceMoveExecutorServices>(), (context) => ({
    workspace_move: (job: ProvisionerJobRecord, ctx: JobContext) =>
      Effect.provide(workspaceMoveExecutor(job, { provisioner: ctx.provisioner, onLog: ctx.log }), context)
  })))
)

/**
 * Every service; needs the repository ports, `Settings`, `PasswordHasher`, `MailSender`,
 * `IdGenerator` and `Provisioners`. The workers (`ProvisionerWorkers`) are built on top by
 * `makeWorkbay`.
 */
const inbox = InboxDeliveryLive.pipe(Layer.provideMerge(InboxNotifications.Default))

const areaServices = jobExecutors.pipe(Layer.provideMerge(tasks), Layer.provideMerge(inbox))

/** Sign-in through GitHub and OpenID Connect (docs/sign-in.md). */
const signIn = Layer.mergeAll(GithubSignIn.DefaultWithoutDependencies, OidcSignIn.DefaultWithoutDependencies).pipe(
  Layer.provideMerge(SignIn.DefaultWithoutDependencies),
  Layer.provideMerge(IdpSync.Default)
)

/** The OAuth2 authorization server, over the services it signs users in with (docs/oauth2.md). */
const oauth2 = Layer.mergeAll(OAuth2Apps.Default, OAuth2Provider.Default, OAuth2Settings.Default)

/** External auth for workspaces and the application routes: on the ports alone (docs/external-auth.md). */
const externalAuth = Layer.mergeAll(ExternalAuth.Default, Applications.Default)

/** Usage insights and their rollup: on the ports alone (docs/insights.md). */
const insights = Layer.mergeAll(Insights.Default, InsightsRollup.Default)

/**
 * Licenses and appearance (docs/enterprise.md). The entitlements' cache (`Licensing`), which the
 * feature gate and IdP sync consult, is provided below every service.
 */
const enterprise = Layer.mergeAll(Licenses.Default, Appearance.Default)

/** Workspace proxies and their health checker, on the ports alone (docs/workspace-proxies.md). */
const proxies = WorkspaceProxies.Default.pipe(Layer.provideMerge(ProxyHealth.Default))

export const ServicesLive = oauth2.pipe(
  Layer.provideMerge(signIn),
  Layer.provideMerge(areaServices),
  Layer.merge(externalAuth),
  Layer.merge(insights),
  Layer.merge(enterprise),
  Layer.merge(Health.Default.pipe(Layer.provideMerge(proxies))),
  Layer.provideMerge(Licensing.Default)
)
