/**
 * @workbay/core: domain models, rules, services, typed errors and repository ports.
 *
 * This file is the package's public surface (its `exports` map has "." only): what an embedder, a
 * storage package or the HTTP package may use. A module or a name it leaves out is internal: a
 * helper of the package itself, reached by the package's own tests through a relative path
 * (`../src/...`). See docs/architecture.md, "Public surface".
 */

// Shared machinery: errors, ids, the actor and the one authorization evaluator, audit collection,
// events, pubsub, settings, secrets, metrics, the services' layer, wire encoding.
export { type Actor, allowed, authorize, authorizeRead, authorizeVisible, CurrentActor, decision } from "./Actor.js"
export { hashAgentToken, isAgentToken } from "./AgentToken.js"
export {
  type AuditAction,
  type AuditDiff,
  type AuditDiffEntry,
  AuditEntries,
  type AuditLogRecord,
  AuditRequest,
  type AuditRequestFacts,
  type AuditRequestShape,
  type AuditResource,
  newAuditRequest,
  NIL_UUID,
  writeAuditEntry
} from "./Audit.js"
export {
  AuthCheck,
  AuthorizationCheck,
  AuthorizationObject,
  AuthorizationRequest,
  AuthorizationResponse,
  type StoredAcl
} from "./AuthCheck.js"
export {
  acquireReleaseInPlace,
  addFinalizerInPlace,
  extendInPlace,
  overlayContext,
  scopedInPlace
} from "./ContextOverlay.js"
export { compileEncoder, compileEncodeStep } from "./Encoding.js"
export * from "./Errors.js"
export * from "./Events.js"
export * from "./Ids.js"
export { lazily, once } from "./Lazily.js"
export * from "./Metrics.js"
export { type DeviceCodes, type OAuthEndpoints } from "./OAuthClient.js"
export { hashSecret, MailSender, PasswordHasher } from "./Platform.js"
export {
  checkChannel,
  checkMessage,
  hexId,
  idMessages,
  makeSubscribers,
  messageNames,
  onSignals,
  PubSub,
  PUBSUB_RESYNC,
  type PubSubShape,
  type Subscribers,
  subscribeWithListen
} from "./PubSub.js"
export * as Rbac from "./Rbac.js"
export * from "./Repositories.js"
export { SearchPageQuery, uuid } from "./Requests.js"
export {
  EncryptionKeysRefused,
  keyDigest,
  makeSecretBox,
  type SealedValue,
  SecretBox,
  type SecretBoxShape,
  SecretDecryptFailed,
  SecretKeyRepo,
  UNENCRYPTED_SECRETS_WARNING
} from "./SecretBox.js"
export { sequential } from "./SequentialLayer.js"
export * from "./Services.js"
export * from "./Settings.js"
export { ReadsAtOnce, readsInTurn, sideBySide } from "./SideBySide.js"
export { DEFAULT_SLOTS, Slots, visitEvery } from "./Slots.js"
export { collectsSpans, isBuiltInTracer } from "./Tracing.js"
export { wireMaker } from "./Wire.js"

// The settings table: one declaration per setting (flag, variable, default, help, deployment-config option).
export { type Setting, settingEnv } from "./settings/Setting.js"
export { type SettingKey, settingsList, type SettingValues } from "./settings/Table.js"
export * as SettingTypes from "./settings/Types.js"

// enterprise: licenses, entitlements, the feature gate's cache, appearance
export { Appearance } from "./enterprise/Appearance.js"
export { Licensing } from "./enterprise/Entitlements.js"
export { type FeatureName, humanize } from "./enterprise/Features.js"
export {
  AppearanceConfig,
  BannerConfig,
  Entitlement,
  Entitlements,
  Feature,
  License,
  type LicenseRecord,
  LicenseRepo,
  type LicenseRepoShape,
  LinkConfig,
  UpdateAppearanceConfig,
  UsagePeriod
} from "./enterprise/License.js"
export { type LicenseKey } from "./enterprise/LicenseKey.js"
export { Licenses } from "./enterprise/Licenses.js"
export {
  RELAY_SECRET_KEY,
  Replica,
  REPLICA_REFRESH_SECONDS,
  REPLICA_STALE_SECONDS,
  type ReplicaRecord,
  replicaRegistration,
  ReplicaRepo,
  Replicas,
  ThisReplica,
  type ThisReplicaShape
} from "./enterprise/Replicas.js"
export * from "./enterprise/Requests.js"

// users: accounts, sessions and API keys, passwords, git SSH keys, quiet hours, links, sign-in throttle
export {
  AllowListEntry,
  ApiKey,
  ApiKeyLoginType,
  type ApiKeyRecord,
  ApiKeyScope,
  ApiKeyWithOwner,
  ExternalApiKeyScopes,
  GenerateApiKeyResponse,
  LoginResponse,
  TokenConfig,
  TokenName
} from "./users/ApiKey.js"
export { Auth, externalScopes } from "./users/Auth.js"
export * from "./users/Events.js"
export * from "./users/GitSshKey.js"
export { type LinkLoginType, type UserLinkClaims, type UserLinkRecord, UserLinkRepo } from "./users/Links.js"
export {
  decideAttempt,
  type LoginFailures,
  loginThrottleKey,
  type LoginThrottleKind,
  type LoginThrottlePolicy,
  LoginThrottleRepo,
  type ThrottleDecision
} from "./users/LoginThrottle.js"
export { NewPassword, ValidateUserPasswordResponse } from "./users/Passwords.js"
export { AgentChatSendShortcut, DisplayMode, type StoredPreferences, UserPreferences } from "./users/Preferences.js"
export * from "./users/Repositories.js"
export * from "./users/Requests.js"
export {
  AssignableRole,
  DisplayName,
  Email,
  FirstUserResponse,
  LoginType,
  MinimalUser,
  ReducedUser,
  RolePermission,
  SlimRole,
  User,
  UserAppearance,
  UserLoginType,
  Username,
  type UserRecord,
  UserRoles,
  UsersPage,
  UserStatus
} from "./users/User.js"
export { Users } from "./users/Users.js"

// organizations and their members, custom roles
export { type CustomRolePermission, type CustomRoleRecord, CustomRoleRepo, Role } from "./organizations/CustomRole.js"
export {
  Organization,
  OrganizationMember,
  OrganizationName,
  type OrganizationRecord,
  PaginatedMembers,
  ShareableWorkspaceOwners,
  WorkspaceSharingSettings
} from "./organizations/Organization.js"
export { Organizations } from "./organizations/Organizations.js"
export * from "./organizations/Repositories.js"
export * from "./organizations/Requests.js"

// groups, quotas, AI budgets
export * from "./groups/Group.js"
export { Groups } from "./groups/Groups.js"
export * from "./groups/Requests.js"

// externalauth: users' links to external auth providers, the tokens agents are handed, sign-in with
// GitHub and OpenID Connect
export {
  ExternalAuth,
  type ExternalAuthCallbackInput,
  type FlowCookie,
  REDIRECT_COOKIE,
  STATE_COOKIE,
  VERIFIER_COOKIE
} from "./externalauth/ExternalAuth.js"
export {
  AgentExternalAuthResponse,
  DeleteExternalAuthResponse,
  ExternalAuthAppInstallation,
  ExternalAuthDevice,
  ExternalAuthLinkProvider,
  type ExternalAuthLinkRecord,
  ExternalAuthLinkRepo,
  ExternalAuthLinkWire,
  ExternalAuthUser,
  ExternalAuthWire,
  ListUserExternalAuthResponse
} from "./externalauth/ExternalAuthLink.js"
export { GithubSignIn } from "./externalauth/GithubSignIn.js"
export { IdpSync } from "./externalauth/IdpSync.js"
export * from "./externalauth/IdpSyncSettings.js"
export * from "./externalauth/OidcSignIn.js"
export { externalAuthFromEnv, type ResolvedProvider, resolveProviders } from "./externalauth/Provider.js"
export * from "./externalauth/Requests.js"
export {
  AuthMethods,
  type CallbackAnswer,
  type CallbackCookie,
  type CallbackInput,
  ConvertLoginResponse,
  DeviceFlowCallbackResponse,
  type ExternalIdentity,
  GithubDeviceResponse,
  OidcClaimsResponse,
  SignIn,
  SignInCookies
} from "./externalauth/SignIn.js"

// templates: uploaded files, archives, the provisioner port, the built-in `workbay` provisioner, the job queue
export {
  type DaemonClientOptions,
  type DaemonLink,
  DaemonWelcome,
  runDaemonSession
} from "./provisioners/DaemonClient.js"
export * from "./provisioners/Events.js"
export {
  checkDaemonName,
  type DaemonChannel,
  type DaemonHello,
  type DaemonSessionOptions,
  serveDaemon
} from "./provisioners/ExternalDaemon.js"
export { type LinkSocket, moveLinkOf } from "./provisioners/MoveLinkSocket.js"
export {
  decidePlacement,
  formatSize,
  type HostRoom,
  MIN_DISK_FREE,
  Placement,
  PLACEMENT_CHOICES,
  PLACEMENT_HOLD,
  type PlacementAsk,
  type PlacementDecision,
  roomOf
} from "./provisioners/Placement.js"
export {
  type AgentApp,
  type AgentMetadataItem,
  type AgentScript,
  type AppHealthcheck,
  type AppOpenIn,
  type AppSharingLevel,
  type BuildInput,
  type BuildMetadata,
  type BuildResult,
  type BuildWorkspace,
  type DisplayApps,
  type DynamicExpressions,
  type ExternalAuthProvider,
  type ImportInput,
  type ImportResult,
  makeProvisioners,
  type MovedVolume,
  type MoveLink,
  type NameValue,
  type Preset,
  type ProvisionedAgent,
  type ProvisionedResource,
  type Provisioner,
  ProvisionerFailure,
  type ProvisionerLog,
  type ProvisionerLogLevel,
  type ProvisionerLogSink,
  type ProvisionerRegistry,
  Provisioners,
  QuotaExceeded,
  REQUIRED_TEMPLATE_VARIABLES,
  type ResourceMetadata,
  type RichParameter,
  type RichParameterOption,
  type TemplateVariable,
  type TransitionResources,
  type VolumeMoveInput,
  type VolumeMoveResult,
  type VolumeMoveSide,
  type WorkspaceTransition,
  workspaceTransitions
} from "./provisioners/Provisioner.js"
export {
  MatchedProvisioners,
  type NewProvisionerDaemon,
  ProvisionerDaemon,
  type ProvisionerDaemonFilter,
  ProvisionerDaemonJob,
  type ProvisionerDaemonRecord,
  ProvisionerDaemonRepo,
  type ProvisionerDaemonStatus
} from "./provisioners/ProvisionerDaemon.js"
export {
  type DaemonListOptions,
  type ExternalDaemonDetails,
  type JobToMatch,
  PROVISIONER_API_VERSION,
  ProvisionerDaemons
} from "./provisioners/ProvisionerDaemons.js"
export {
  CAPACITY_BOUNDS,
  DEFAULT_CAPACITY_INTERVAL,
  HOST_NAME,
  HOST_STALE_INTERVAL,
  HostCapacity,
  hostStatus,
  ProvisionerHost,
  type ProvisionerHostRecord,
  ProvisionerHostRepo,
  type ProvisionerHostStatus,
  provisionerHostStatuses
} from "./provisioners/ProvisionerHost.js"
export {
  HOST_FLUSH_BATCH,
  HOST_FLUSH_INTERVAL,
  HOST_REFRESH_INTERVAL,
  type HostReporter,
  ProvisionerHosts
} from "./provisioners/ProvisionerHosts.js"
export {
  type AppendLogsResult,
  JOB_STATUS_SQL,
  type JobCompletion,
  jobStatus,
  type LogLevel,
  logLevels,
  type LogSource,
  logSources,
  mutateTags,
  type NewProvisionerJob,
  type NewProvisionerJobLog,
  ProvisionerJob,
  type ProvisionerJobFilter,
  type ProvisionerJobInput,
  ProvisionerJobInputWire,
  ProvisionerJobLog,
  type ProvisionerJobLogRecord,
  ProvisionerJobMetadata,
  type ProvisionerJobRecord,
  ProvisionerJobRepo,
  type ProvisionerJobStatus,
  provisionerJobStatuses,
  type ProvisionerJobType,
  provisionerJobTypes,
  type ProvisionerTags,
  type ProvisionerWorker,
  type QueueStanding,
  tagsMatch,
  type TemplateVersionMetadata,
  toProvisionerJobLog,
  type WorkspaceBuildMetadata
} from "./provisioners/ProvisionerJob.js"
export {
  type EnqueueJob,
  type FollowLogsOptions,
  HangDetector,
  type HangDetectorOptions,
  ProvisionerJobs
} from "./provisioners/ProvisionerJobs.js"
export { ProvisionerJobViews } from "./provisioners/ProvisionerJobViews.js"
export {
  CreateProvisionerKeyResponse,
  PROVISIONER_KEY_HEADER,
  ProvisionerKey,
  ProvisionerKeyDaemons,
  type ProvisionerKeyRecord,
  ProvisionerKeyRepo
} from "./provisioners/ProvisionerKey.js"
export { ProvisionerKeys } from "./provisioners/ProvisionerKeys.js"
export * from "./provisioners/Requests.js"
export {
  type JobContext,
  type JobExecutor,
  JobExecutors,
  JobSignal,
  ProvisionerWorkers,
  type WorkerOptions
} from "./provisioners/Worker.js"
export { ArchiveError, type ArchiveFiles, type ArchiveLimits, readArchive } from "./templates/Archive.js"
export { BUILD_TIME_STATS_BUILDS, BuildDurations } from "./templates/BuildTimeStats.js"
export * from "./templates/DynamicParameters.js"
export * from "./templates/Events.js"
export { TemplateExample } from "./templates/Examples.js"
export {
  compileExpression,
  evaluateExpression,
  MAX_COMPREHENSION_NESTING,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_NODES,
  MAX_LIST_VALUES
} from "./templates/Expressions.js"
export { DEFAULT_MAX_FILE_BYTES, type FileRecord, FileRepo, TAR_MIME_TYPE, UploadResponse } from "./templates/File.js"
export * from "./templates/Files.js"
export * from "./templates/Requests.js"
export {
  type NewTemplate,
  newTemplate,
  type TemplateAcl,
  type TemplateFilter,
  type TemplatePatch,
  type TemplateRecord,
  TemplateRepo,
  type TemplateRole
} from "./templates/Template.js"
export {
  DOCKER_CONTAINER,
  DOCKER_VOLUME,
  formatPath,
  MIN_CONTAINER_MEMORY,
  parseCpus,
  parseMemory,
  referencesIn,
  RESERVED_LABEL_PREFIX,
  substitute,
  type Substitutions,
  type TemplateIssue,
  type TemplateSpec
} from "./templates/TemplateFile.js"
export { Templates, TemplateWorkspaces } from "./templates/Templates.js"
export {
  type DryRunRecord,
  type ImportedAgent,
  type ImportedApp,
  type ImportedPreset,
  type ImportedResource,
  type ImportedScript,
  type NewTemplateVersion,
  newTemplateVersion,
  type TemplateVersionImport,
  type TemplateVersionPage,
  type TemplateVersionPatch,
  type TemplateVersionRecord,
  TemplateVersionRepo
} from "./templates/TemplateVersion.js"
export { TemplateVersions } from "./templates/TemplateVersions.js"
export {
  type AppStatusState,
  ArchiveTemplateVersionsResponse,
  Healthcheck,
  PresetParameter,
  TemplateVersion,
  TemplateVersionExternalAuth,
  TemplateVersionParameter,
  TemplateVersionParameterOption,
  TemplateVersionVariable,
  VersionPreset,
  WorkspaceAgent,
  WorkspaceAgentHealth,
  WorkspaceAgentLogSource,
  WorkspaceAgentScript,
  WorkspaceApp,
  WorkspaceAppStatus,
  WorkspaceResource,
  WorkspaceResourceMetadata
} from "./templates/TemplateVersionWire.js"
export {
  ACLAvailable,
  CorsBehavior,
  InvalidatedPreset,
  InvalidatePresetsResponse,
  PortShareLevel,
  Template,
  TemplateACL,
  TemplateAutostartRequirement,
  TemplateAutostopRequirement,
  TemplateGroup,
  TemplateRoleSchema,
  TemplateUser,
  TransitionStats
} from "./templates/TemplateWire.js"
export {
  keptAgents,
  makeTemplateProvisioner,
  makeWorkbayProvisioner,
  type TemplateApply,
  type TemplateDemand,
  templateDemand,
  type TemplateDriver,
  type TemplateProvisionerOptions,
  WORKBAY_PROVISIONER,
  workbayProvisioner,
  type WorkbayProvisionerOptions,
  type WorkbayState
} from "./templates/WorkbayProvisioner.js"

// workspaces: workspaces, their builds and what those provision, sharing, schedules, watching
export { DEPLOYMENT_ID_KEY, settingsWithDeploymentId } from "./enterprise/DeploymentId.js"
export {
  type ActivityCandidate,
  type DeadlineBump,
  deadlineBumps,
  WorkspaceActivity,
  WorkspaceActivityRepo
} from "./workspaces/Activity.js"
export {
  APP_KEY_PARAM,
  appSubdomainName,
  parseAppSubdomain,
  type ParsedAppHost,
  SUBDOMAIN_APP_COOKIE_PREFIX,
  subdomainAppCookie,
  wildcardLabelReader
} from "./workspaces/AppUrl.js"
export * from "./workspaces/Autofill.js"
export {
  AgentConnectionTiming,
  AgentScriptTiming,
  ProvisionerTiming,
  type TimingStage,
  WorkspaceBuildTimings
} from "./workspaces/BuildTimings.js"
export * from "./workspaces/Events.js"
export {
  inProcessTickLock,
  LifecycleActions,
  type LifecycleCandidate,
  LifecycleCandidates,
  LifecycleExecutor,
  TickLock,
  type TickStats
} from "./workspaces/Lifecycle.js"
export * from "./workspaces/LifecycleActions.js"
export {
  portShareLevelsAbove,
  type PortShareLevelValue,
  PortShareProtocol,
  type PortShareRecord,
  PortShareRepo,
  type ShareableLevel,
  WorkspaceAgentPortShare,
  WorkspaceAgentPortShares
} from "./workspaces/PortShare.js"
export * from "./workspaces/PortShares.js"
export * from "./workspaces/Prebuilds.js"
export * from "./workspaces/PrebuildsSettings.js"
export { WorkspaceQuotas } from "./workspaces/Quotas.js"
export {
  AutofillParametersQuery,
  AvailableUsersQuery,
  CancelBuildQuery,
  CreateWorkspaceBuildRequest,
  CreateWorkspaceMoveRequest,
  CreateWorkspaceRequest,
  DeleteWorkspaceAgentPortShareRequest,
  GetWorkspaceQuery,
  ListBuildsQuery,
  ListWorkspacesQuery,
  PostWorkspaceUsageBody,
  PostWorkspaceUsageRequest,
  PutExtendWorkspaceRequest,
  UpdateWorkspaceACL,
  UpdateWorkspaceAutomaticUpdatesRequest,
  UpdateWorkspaceAutostartRequest,
  UpdateWorkspaceBuildStateRequest,
  UpdateWorkspaceDormancy,
  UpdateWorkspaceRequest,
  UpdateWorkspaceTTLRequest,
  UpsertWorkspaceAgentPortShareRequest
} from "./workspaces/Requests.js"
export { type LifecycleBuild, type LifecycleDecision, type LifecycleRule } from "./workspaces/Schedule.js"
export {
  SharedWorkspaceActor,
  WorkspaceACL,
  WorkspaceGroup,
  WorkspaceRoleSchema,
  WorkspaceSharing,
  WorkspaceUser
} from "./workspaces/Sharing.js"
export { stopVanishedMachine, type VanishedMachine } from "./workspaces/VanishedMachines.js"
export {
  publishWorkspaceChange,
  type WorkspaceChange,
  type WorkspaceFollow,
  type WorkspaceListener,
  WorkspaceWatch
} from "./workspaces/Watch.js"
export {
  type AutomaticUpdates,
  automaticUpdatesValues,
  type NewWorkspace,
  newWorkspace,
  type WorkspaceAcl,
  type WorkspaceFilter,
  WorkspaceName,
  type WorkspacePatch,
  type WorkspaceRecord,
  WorkspaceRepo,
  type WorkspaceRole,
  type WorkspaceVisibility
} from "./workspaces/Workspace.js"
export {
  type AgentLogSourceRecord,
  type AgentScriptResult,
  type AgentScriptRun,
  type AppHealth,
  type AppStatusRecord,
  type BuildReason,
  type NewStoredResource,
  type NewWorkspaceAgent,
  type NewWorkspaceBuild,
  newWorkspaceBuild,
  type PrebuildCreation,
  type StoredAgentApp,
  type StoredAgentScript,
  type StoredResource,
  type WorkspaceAgentRecord,
  type WorkspaceBuildPage,
  type WorkspaceBuildRecord,
  WorkspaceBuildRepo,
  type WorkspaceBuildResult,
  type WorkspaceBuildSummary,
  type WorkspaceResourceRecord,
  WorkspaceResourceRepo,
  type WorkspaceStatus,
  workspaceStatuses
} from "./workspaces/WorkspaceBuild.js"
export { AgentInitScripts, TaskPrompts } from "./workspaces/WorkspaceBuildExecutor.js"
export { type QueueBuild, WorkspaceBuilds } from "./workspaces/WorkspaceBuilds.js"
export * from "./workspaces/WorkspaceMove.js"
export { WorkspaceMoves } from "./workspaces/WorkspaceMoves.js"
export { Workspaces } from "./workspaces/Workspaces.js"
export { ResolveAutostartResponse, WorkspaceSchedules } from "./workspaces/WorkspaceSchedules.js"
export {
  Workspace,
  WorkspaceBuild,
  WorkspaceBuildParameter,
  workspaceBuildReasons,
  WorkspaceHealth,
  WorkspacesResponse
} from "./workspaces/WorkspaceWire.js"

// agents: workspace agents, their tokens and what they report
export * from "./agents/Agent.js"
export { AgentAuth, type AgentSession, CurrentAgent } from "./agents/AgentAuth.js"
export * from "./agents/AgentLog.js"
export {
  AgentCommand,
  AgentConnectionInfo,
  AgentGitSshKey,
  Agents,
  ExternalAgentCredentialsWire
} from "./agents/Agents.js"
export {
  APP_PROXY_MAX_REQUEST_BYTES,
  type AppOpened,
  type AppOpenError,
  AppProxy,
  type AppRequest,
  type AppSessionKey,
  AppSessionRepo
} from "./agents/AppProxy.js"
export { AppStatuses, AppStatusRepo } from "./agents/AppStatus.js"
export { Binaries, type BinaryProgram, type ServedBinary, servedBinary } from "./agents/Binaries.js"
export {
  type AgentChannel,
  type AgentChannelOut,
  AgentConnectionMonitor,
  agentConnectionMonitorPeriodic,
  type AgentConnectionServices,
  type AgentMonitorOptions,
  type AgentSweep,
  type OpenAgentConnection,
  openAgentConnection,
  serveAgentConnection
} from "./agents/Connection.js"
export {
  type AgentConnectionType,
  type ConnectionEvent,
  ConnectionLogSink,
  type ConnectionType,
  connectionTypes,
  type DisconnectEvent
} from "./agents/ConnectionEvents.js"
export * from "./agents/Connections.js"
export { ConnectionWatch } from "./agents/ConnectionWatch.js"
export {
  AgentContainers,
  CONTAINERS_WATCH_INTERVAL_SECONDS,
  WorkspaceAgentContainer,
  WorkspaceAgentContainerPort,
  WorkspaceAgentDevcontainer,
  WorkspaceAgentDevcontainerAgent,
  WorkspaceAgentDevcontainerStatus,
  WorkspaceAgentListContainersResponse
} from "./agents/Containers.js"
export {
  type AgentHandle,
  type AgentPeerConnection,
  type ClientHandle,
  Coordinator,
  type CoordinatorEngine,
  type Outbox,
  type PeerConnection
} from "./agents/Coordinator.js"
export * from "./agents/Events.js"
export { type AgentHolder, agentHolder, notConnectedHere } from "./agents/Holder.js"
export { agentInitScript, INIT_SCRIPT_PLATFORMS, initScriptFor } from "./agents/InitScript.js"
export { AuthenticateResponse, IdentityRefused, InstanceIdentity } from "./agents/InstanceIdentity.js"
export {
  AgentListeningPorts,
  WorkspaceAgentListeningPort,
  WorkspaceAgentListeningPortsResponse
} from "./agents/ListeningPorts.js"
export {
  AgentLogRepo,
  AgentLogs,
  BatchCreateLogs,
  type FollowAgentLogsOptions,
  MAX_AGENT_LOG_BYTES
} from "./agents/Logs.js"
export * from "./agents/Manifest.js"
export { AgentMetadataWatch } from "./agents/MetadataWatch.js"
export * from "./agents/Reinit.js"
export { checkRelayMap, DerpMap, DerpNode, DerpRegion, RelayMap, type RelayMapListener } from "./agents/RelayMap.js"
export {
  AGENT_METADATA_BATCH_CHANNEL,
  AgentReportBatch,
  hasSessions,
  REPORT_FLUSH_ATTEMPTS,
  REPORT_FLUSH_INTERVAL,
  REPORT_FLUSH_ROWS,
  type ReportBatchOptions,
  type ReportCounts,
  type ReportFlush
} from "./agents/ReportBatch.js"
export { decodeMetadataUpdate, decodeStatsUpdate } from "./agents/ReportDecoding.js"
export {
  AGENT_REPLACED_REASON,
  type AgentMetadataRecord,
  type AgentMetadataRow,
  type AgentRefreshRow,
  AgentReportBuffer,
  AgentReportRepo,
  AgentReports,
  type AgentStats,
  type AgentStatsRow,
  type AgentStatsSummary,
  AppHealthUpdate,
  type LifecycleState,
  LifecycleUpdate,
  MetadataUpdate,
  type OverdueAgent,
  ReportRefused,
  ReportTime,
  ScriptCompleted,
  StartupUpdate,
  StatsUpdate
} from "./agents/Reports.js"
export * from "./agents/Requests.js"
export {
  AgentStreams,
  STREAM_OPEN_TIMEOUT_SECONDS,
  type StreamClient,
  type StreamPlan,
  type StreamRequest
} from "./agents/Streams.js"
export { AgentTaskLog, TaskLogAppend } from "./agents/TaskLog.js"
export {
  AgentTunnels,
  APP_PROXY_RESPONSE_TIMEOUT_SECONDS,
  type AppResponse,
  type AppResponseHead,
  CONTAINERS_TIMEOUT_SECONDS,
  type HeaderMap,
  LISTENING_PORTS_TIMEOUT_SECONDS,
  type ListeningPort,
  type Tunnel,
  type TunnelRequest,
  withAppTunnel
} from "./agents/Tunnels.js"
export {
  AGENT_REINIT_PREBUILD_CLAIMED,
  agentReinitChannel,
  publishWorkspaceChanges,
  WORKSPACE_BATCH_CHANNEL
} from "./WorkspaceChannel.js"

// tasks: AI tasks, a prompt that becomes a workspace running an AI agent
export {
  type AgentApiSnapshotMessage,
  agentTaskLogLayer,
  type StoredTaskLogSnapshot,
  TaskAgentUnavailable,
  TaskConversation,
  type TaskLogCap,
  type TaskLogEntry,
  type TaskLogEntryInput,
  TaskLogRepo
} from "./tasks/Conversation.js"
export * from "./tasks/Requests.js"
export {
  type TaskFilter,
  type TaskPatch,
  taskPromptsLayer,
  type TaskRecord,
  TaskRepo,
  type TaskVisibility
} from "./tasks/Task.js"
export { Tasks } from "./tasks/Tasks.js"
export {
  Task,
  TaskBuildResponse,
  TaskLogEntryWire,
  TaskLogsResponse,
  TasksListResponse,
  type TaskState,
  TaskStateEntry,
  type TaskStatus
} from "./tasks/TaskWire.js"

// general: build info, deployment records and configuration
export * from "./general/BuildInfo.js"
export { Deployment } from "./general/Deployment.js"
export {
  deploymentConfig,
  DeploymentConfigResponse,
  DeploymentOption,
  DeploymentOptionGroup
} from "./general/DeploymentConfig.js"
export * from "./general/Requests.js"

// proxies: workspace proxies, regions, the proxies' registration and their health checker
export {
  ProxyHealth,
  type ProxyHealthOptions,
  proxyHealthPeriodic,
  type ProxyHealthTick
} from "./proxies/ProxyHealth.js"
export * from "./proxies/Requests.js"
export { PROXY_TOKEN_HEADER, WorkspaceProxies } from "./proxies/WorkspaceProxies.js"
export * from "./proxies/WorkspaceProxy.js"

// applications: the wildcard app host and the application key hand-off
export { AppHostResponse, Applications } from "./applications/Applications.js"
export * from "./applications/Requests.js"

// oauth2: the authorization server (apps, registration, codes, tokens, discovery)
export { accessHostOf, crossSiteRefusal, type RequestOrigin } from "./CrossSite.js"
export {
  type ClientMetadata,
  OAuth2AppEndpoints,
  type OAuth2AppFilter,
  type OAuth2AppRecord,
  type OAuth2AppSecretRecord,
  OAuth2AuthorizationServerMetadata,
  OAuth2ClientConfiguration,
  OAuth2ClientRegistrationResponse,
  type OAuth2CodeRecord,
  OAuth2Error,
  OAuth2ProtectedResourceMetadata,
  OAuth2ProviderApp,
  OAuth2ProviderAppSecret,
  OAuth2ProviderAppSecretFull,
  OAuth2ProviderSettings,
  OAuth2Repo,
  type OAuth2TokenRecord,
  OAuth2TokenResponse,
  OAuth2Unauthorized,
  type TokenEndpointAuthMethod,
  TokenEndpointAuthMethods
} from "./oauth2/OAuth2App.js"
export { OAuth2Apps } from "./oauth2/OAuth2Apps.js"
export { type AuthorizePage, OAuth2Provider } from "./oauth2/OAuth2Provider.js"
export { OAuth2Settings } from "./oauth2/OAuth2Settings.js"
export * from "./oauth2/Requests.js"
export * as OAuth2Scopes from "./oauth2/Scopes.js"

// debug: health checks and reports, metrics snapshots
export {
  AccessUrlReport,
  DatabasePing,
  DatabaseReport,
  DerpReport,
  Health,
  HealthcheckReport,
  HealthMessage,
  type HealthProbes,
  HealthSeverity,
  ProvisionerDaemonsReport,
  WebsocketReport,
  WorkspaceProxyReport
} from "./debug/Health.js"
export { HealthSection, HealthSettings } from "./debug/HealthSettings.js"
export * from "./debug/MetricsSnapshot.js"
export * from "./debug/Requests.js"

// audit and connection logs, retention
export {
  AuditDiffField,
  AuditLog,
  type AuditLogFilter,
  AuditLogRepo,
  AuditLogsPage,
  MinimalOrganization
} from "./audit/AuditLog.js"
export { AuditLogs, connectionLogSinkLayer } from "./audit/AuditLogs.js"
export * from "./audit/ConnectionLog.js"
export * from "./audit/Requests.js"
export { type PurgeReport, Retention, type RetentionOptions } from "./audit/Retention.js"

// notifications: templates, preferences, the queue and the notifier; the inbox
export * from "./notifications/InboxDelivery.js"
export {
  GetInboxNotificationResponse,
  type InboxFilter,
  InboxNotification,
  InboxNotificationAction,
  type InboxNotificationRecord,
  InboxNotificationRepo,
  type InboxReadStatus,
  ListInboxNotificationsResponse,
  UpdateInboxNotificationReadStatusResponse
} from "./notifications/InboxNotification.js"
export {
  InboxDeliveryLive,
  type InboxEvent,
  type InboxFormat,
  type InboxListener,
  InboxNotifications,
  matchesWatch
} from "./notifications/InboxNotifications.js"
export {
  type LeaseRequest,
  type NewNotificationMessage,
  type NotificationMessageRecord,
  type NotificationMessageStatus,
  type NotificationPayload,
  type NotificationPreferenceRecord,
  NotificationRepo
} from "./notifications/NotificationMessage.js"
export { type EnqueueInput, NotificationQueue } from "./notifications/NotificationQueue.js"
export { Notifications } from "./notifications/Notifications.js"
export {
  type NotificationMethod,
  notificationMethods,
  NotificationMethodsResponse,
  NotificationPreference,
  NotificationsSettings,
  NotificationTemplate,
  type TemplateAction,
  TemplateIds
} from "./notifications/NotificationTemplate.js"
export {
  DeliveryFailure,
  type DispatchReport,
  NotificationSenders,
  Notifier,
  type NotifierOptions,
  notifierPeriodic,
  type OutgoingNotification
} from "./notifications/Notifier.js"
export * from "./notifications/Requests.js"

// insights: rollups and reports
export {
  type ActiveBucket,
  type AppUsageTotals,
  buildDurationsLayer,
  DAUEntry,
  DAUsResponse,
  GetUserStatusCountsResponse,
  type HourLatency,
  InsightsInterval,
  InsightsRepo,
  type InsightsUser,
  type ParameterValueCount,
  type RollupReport,
  type RollupState,
  TemplateAppUsage,
  TemplateInsightsIntervalReport,
  TemplateInsightsReport,
  TemplateInsightsResponse,
  TemplateParameterUsage,
  type UsageTotals,
  UserActivity,
  UserActivityInsightsResponse,
  UserLatency,
  UserLatencyInsightsResponse,
  type UserStatusChange,
  UserStatusChangeCount
} from "./insights/Insight.js"
export { Insights } from "./insights/Insights.js"
export * from "./insights/Requests.js"
export { InsightsRollup, type InsightsRollupOptions, insightsRollupPeriodic } from "./insights/Rollup.js"
