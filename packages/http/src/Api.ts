/** The whole HTTP contract: one HttpApi joining every group. Source of the OpenAPI document and the typed client. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AgentMeApi, AgentsApi } from "./agents/Api.js"
import { AgentBinariesApi } from "./agents/BinariesApi.js"
import { AgentIdentityApi } from "./agents/IdentityApi.js"
import { AgentLogsApi, AgentReportsApi } from "./agents/LogsApi.js"
import { AgentMetadataApi, AgentRpcApi } from "./agents/RpcApi.js"
import { AgentStreamEndApi, AgentStreamsApi } from "./agents/StreamsApi.js"
import { TailnetAgentApi, TailnetApi } from "./agents/TailnetApi.js"
import { ApplicationsApi } from "./applications/Api.js"
import { AuditApi } from "./audit/Api.js"
import { InternalError, Unauthorized } from "./Common.js"
import { DebugApi } from "./debug/Api.js"
import { EnterpriseApi } from "./enterprise/Api.js"
import { AgentExternalAuthApi, ExternalAuthApi } from "./externalauth/Api.js"
import { IdpSyncApi } from "./externalauth/IdpSyncApi.js"
import { DeploymentApi, GeneralApi } from "./general/Api.js"
import { GroupsApi } from "./groups/Api.js"
import { InsightsApi } from "./insights/Api.js"
import { NotificationsApi } from "./notifications/Api.js"
import { InboxApi } from "./notifications/InboxApi.js"
import { OAuth2Api, OAuth2AppsApi, OAuth2DiscoveryApi } from "./oauth2/Api.js"
import { OrganizationsApi } from "./organizations/Api.js"
import { ProvisionerJobsApi } from "./provisioners/JobsApi.js"
import { ProvisionerDaemonServeApi, ProvisionerKeysApi } from "./provisioners/KeysApi.js"
import { WorkspaceProxiesApi, WorkspaceProxyMeApi } from "./proxies/Api.js"
import { TaskAgentApi, TasksApi } from "./tasks/Api.js"
import { FilesApi } from "./templates/FilesApi.js"
import { TemplatesApi } from "./templates/TemplatesApi.js"
import { TemplateVersionsApi } from "./templates/VersionsApi.js"
import { UsersApi } from "./users/Api.js"
import { AuthorizationApi, SessionApi } from "./users/AuthApi.js"
import { SignInApi, SignInSessionApi } from "./users/SignInApi.js"
import { WorkspacesApi } from "./workspaces/Api.js"
import { WorkspaceMoveLinkApi, WorkspaceMovesApi } from "./workspaces/MovesApi.js"
import { PortSharesApi } from "./workspaces/PortSharesApi.js"
import { WorkspaceSchedulesApi } from "./workspaces/ScheduleApi.js"
import { WorkspaceSharingApi } from "./workspaces/SharingApi.js"
import { WorkspaceWatchApi } from "./workspaces/WatchApi.js"

export class WorkbayApi extends HttpApi.make("workbay")
  .add(GeneralApi)
  .add(DeploymentApi)
  .add(AuthorizationApi)
  .add(SessionApi)
  .add(UsersApi)
  .add(OrganizationsApi)
  .add(GroupsApi)
  .add(AuditApi)
  .add(FilesApi)
  .add(ProvisionerJobsApi)
  .add(ProvisionerKeysApi)
  .add(ProvisionerDaemonServeApi)
  .add(TemplatesApi)
  .add(TemplateVersionsApi)
  .add(WorkspaceSharingApi)
  .add(PortSharesApi)
  .add(WorkspaceMovesApi)
  .add(WorkspaceMoveLinkApi)
  .add(WorkspaceSchedulesApi)
  .add(WorkspacesApi)
  .add(WorkspaceWatchApi)
  .add(AgentsApi)
  .add(AgentMeApi)
  .add(TailnetApi)
  .add(TailnetAgentApi)
  .add(AgentIdentityApi)
  .add(AgentBinariesApi)
  .add(AgentLogsApi)
  .add(AgentReportsApi)
  .add(AgentRpcApi)
  .add(AgentMetadataApi)
  .add(AgentStreamsApi)
  .add(AgentStreamEndApi)
  .add(TasksApi)
  .add(TaskAgentApi)
  .add(InboxApi)
  .add(NotificationsApi)
  .add(OAuth2AppsApi)
  .add(OAuth2Api)
  .add(OAuth2DiscoveryApi)
  .add(SignInApi)
  .add(SignInSessionApi)
  .add(ExternalAuthApi)
  .add(AgentExternalAuthApi)
  .add(IdpSyncApi)
  .add(ApplicationsApi)
  .add(InsightsApi)
  .add(EnterpriseApi)
  .add(WorkspaceProxiesApi)
  .add(WorkspaceProxyMeApi)
  .add(DebugApi)
  .addError(Unauthorized)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Workbay API")
  .annotate(OpenApi.Version, "2.0")
{}
