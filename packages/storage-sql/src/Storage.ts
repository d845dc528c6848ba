/** Builds a storage layer from a client layer: migrations first, then the repositories. */
import type { SqlClient } from "@effect/sql"
import type { PubSub } from "@workbay/core"
import { Effect, Layer } from "effect"
import * as AppSessionRepositories from "./agents/AppSessionRepositories.js"
import * as AgentLogRepositories from "./agents/LogRepositories.js"
import * as AgentReportRepositories from "./agents/ReportRepositories.js"
import * as AgentRepositories from "./agents/Repositories.js"
import * as AuditRepositories from "./audit/AuditRepositories.js"
import * as ConnectionLogRepositories from "./audit/ConnectionLogRepositories.js"
import * as DebugRepositories from "./debug/Repositories.js"
import * as ReplicaRepositories from "./enterprise/ReplicaRepositories.js"
import * as LicenseRepositories from "./enterprise/Repositories.js"
import * as IdpSyncRepositories from "./externalauth/IdpSyncRepositories.js"
import * as ExternalAuthRepositories from "./externalauth/Repositories.js"
import * as GroupRepositories from "./groups/Repositories.js"
import * as InsightsRepositories from "./insights/Repositories.js"
import * as MetricsSnapshot from "./MetricsSnapshot.js"
import { runMigrations } from "./Migrations.js"
import * as InboxRepositories from "./notifications/InboxRepositories.js"
import * as NotificationRepositories from "./notifications/Repositories.js"
import * as OAuth2Repositories from "./oauth2/Repositories.js"
import * as CustomRoleRepositories from "./organizations/CustomRoleRepositories.js"
import * as OrganizationRepositories from "./organizations/Repositories.js"
import * as ProvisionerDaemonRepositories from "./provisioners/ProvisionerDaemonRepositories.js"
import * as ProvisionerHostRepositories from "./provisioners/ProvisionerHostRepositories.js"
import * as ProvisionerJobRepositories from "./provisioners/ProvisionerJobRepositories.js"
import * as ProvisionerKeyRepositories from "./provisioners/ProvisionerKeyRepositories.js"
import * as WorkspaceProxyRepositories from "./proxies/Repositories.js"
import type { DialectTypes } from "./Schema.js"
import * as Secrets from "./Secrets.js"
import * as TaskConversationRepositories from "./tasks/ConversationRepositories.js"
import * as TaskRepositories from "./tasks/Repositories.js"
import * as FileRepositories from "./templates/Repositories.js"
import * as TemplateRepositories from "./templates/TemplateRepositories.js"
import { transactionsLayer } from "./Transaction.js"
import * as KeyCache from "./users/KeyCache.js"
import * as UserLinkRepositories from "./users/LinkRepositories.js"
import * as LoginThrottleRepositories from "./users/LoginThrottleRepositories.js"
import * as Repositories from "./users/Repositories.js"
import * as WorkspaceActivityRepositories from "./workspaces/ActivityRepositories.js"
import * as WorkspaceBuildRepositories from "./workspaces/BuildRepositories.js"
import * as LifecycleRepositories from "./workspaces/LifecycleRepositories.js"
import * as MoveRepositories from "./workspaces/MoveRepositories.js"
import * as PortShareRepositories from "./workspaces/PortShareRepositories.js"
import * as WorkspaceRepositories from "./workspaces/Repositories.js"
import * as TickLockLayer from "./workspaces/TickLock.js"

const baseRepositories = Layer.mergeAll(
  Repositories.layer,
  OrganizationRepositories.layer,
  CustomRoleRepositories.layer,
  GroupRepositories.layer,
  AuditRepositories.layer,
  ConnectionLogRepositories.layer,
  FileRepositories.layer,
  ProvisionerJobRepositories.layer,
  ProvisionerDaemonRepositories.layer,
  ProvisionerKeyRepositories.layer,
  ProvisionerHostRepositories.layer,
  TemplateRepositories.layer,
  WorkspaceRepositories.layer,
  TickLockLayer.layer,
  PortShareRepositories.layer,
  MoveRepositories.layer,
  WorkspaceBuildRepositories.layer,
  WorkspaceActivityRepositories.layer,
  AgentRepositories.layer,
  AgentLogRepositories.layer,
  AgentReportRepositories.layer,
  TaskConversationRepositories.layer,
  TaskRepositories.layer,
  AppSessionRepositories.layer,
  InboxRepositories.layer,
  NotificationRepositories.layer,
  OAuth2Repositories.layer,
  UserLinkRepositories.layer,
  LoginThrottleRepositories.layer,
  ExternalAuthRepositories.layer,
  IdpSyncRepositories.layer,
  InsightsRepositories.layer,
  LicenseRepositories.layer,
  ReplicaRepositories.layer,
  WorkspaceProxyRepositories.layer,
  DebugRepositories.layer,
  MetricsSnapshot.layer,
  transactionsLayer,
  Secrets.layer
)

/**
 * Every repository of every area, and `Transactions`, on whichever `SqlClient` and `PubSub` are
 * provided (the cache of authenticated keys hears the other replicas' changes through it).
 */
export const repositories = LifecycleRepositories.layer.pipe(
  Layer.provideMerge(baseRepositories),
  Layer.provide(KeyCache.layer)
)

/** The ports every storage provides: the repositories, `Transactions` and `PubSub`. */
export type StoragePorts = Layer.Layer.Success<typeof repositories> | PubSub

/**
 * Repositories and `pubsub` on `client`, after running its migrations at start-up.
 * `setup` runs first (e.g. SQLite pragmas).
 */
export const fromClient = <E>(
  client: Layer.Layer<SqlClient.SqlClient, E>,
  types: DialectTypes,
  setup: Effect.Effect<void, unknown, SqlClient.SqlClient>,
  pubsub: Layer.Layer<PubSub, never, SqlClient.SqlClient>
): Layer.Layer<StoragePorts | SqlClient.SqlClient, E> =>
  repositories.pipe(Layer.provideMerge(pubsub)).pipe(
    Layer.provideMerge(
      Layer.effectDiscard(
        Effect.zipRight(setup, runMigrations(types)).pipe(Effect.orDie)
      ).pipe(Layer.provideMerge(client))
    )
  )
