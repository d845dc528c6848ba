/**
 * Assembly: the services on a storage layer, and the handlers that serve them.
 * `layer` is for Effect users; `makeWorkbay` for everybody else.
 */
import {
  type Auth, HangDetector, type HangDetectorOptions, IdGenerator, MailSender, PasswordHasher, type Provisioner, Provisioners, Retention,
  type RetentionOptions, ServicesLive, Settings,
  type SettingsShape, workbayProvisioner
} from "@workbay/core"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import type { StoragePorts } from "@workbay/storage-sql"
import { type NodeHandler, toNodeHandler, toWebHandler, type WebHandler } from "./Adapters.js"
import { WorkbayApi } from "./Api.js"
import { AuthorizationHttp, SessionHttp } from "./users/AuthHttp.js"
import { type Dispatcher, type HttpOptions, makeDispatcher } from "./Dispatcher.js"
import type { GroupImplementation } from "./Handlers.js"
import { DeploymentHttp, GeneralHttp } from "./general/Http.js"
import { OrganizationsHttp } from "./organizations/Http.js"
import { UsersHttp } from "./users/Http.js"
import { AuditHttp } from "./audit/Http.js"
import { GroupsHttp } from "./groups/Http.js"
import { FilesHttp } from "./templates/Http.js"
import { TemplateVersionsHttp } from "./templates/VersionsHttp.js"

/** Every group's handlers. */
export const implementations = [
  GeneralHttp, DeploymentHttp, AuthorizationHttp, SessionHttp, UsersHttp, OrganizationsHttp, GroupsHttp, AuditHttp, FilesHttp,
  TemplateVersionsHttp
]

export interface WorkbayHandlerShape {
  /** Mount on node:http, Express, Connect, Fastify (`fastify.all('/*', ...)` with the raw req/res). */
  readonly node: NodeHandler
  /** Mount on anything that speaks Fetch `Request`/`Response` (Hono, Bun, Deno, workers). */
  readonly web: WebHandler
  readonly dispatcher: Dispatcher
}

export class WorkbayHandler extends Context.Tag("@workbay/http/WorkbayHandler")<WorkbayHandler, WorkbayHandlerShape>() {}

/** What the services need besides storage; each has a production default. */
export interface WorkbayOptions {
  readonly settings?: Partial<SettingsShape> | undefined
  readonly http?: HttpOptions | undefined
  /** log2 of scrypt's N. Default 15; tests use less. */
  readonly passwordHashCost?: number | undefined
  /** Replace the mail sender (default: writes mails to the log). */
  readonly mail?: Layer.Layer<MailSender> | undefined
  /**
   * The retention purge (audit entries, connection log entries, expired API keys, by the
   * `retention*` settings): runs at start and then every `interval` (default one hour).
   * `false` turns it off, e.g. when another process purges. Default: on.
   */
  readonly retention?: false | RetentionOptions | undefined
  /**
   * The hang detector: fails running provisioner jobs whose worker stopped reporting for
   * `timeout` (default 5 minutes), sweeping every `interval` (default one minute). Safe with
   * several processes on one database (each sweep is one conditional update). `false` turns
   * it off. Default: on.
   */
  readonly hangDetector?: false | HangDetectorOptions | undefined
  /**
   * The provisioners template versions and workspaces are built with, by type. Default: the
   * built-in `workbay` one. Jobs of a type no provisioner has stay pending.
   */
  readonly provisioners?: ReadonlyArray<Provisioner> | undefined
}

/** The core services and ports, given a storage layer. */
export const servicesLayer = <E>(storage: Layer.Layer<StoragePorts, E>, options: WorkbayOptions = {}) =>
  ServicesLive.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        storage,
        Settings.layer(options.settings),
        PasswordHasher.scrypt(options.passwordHashCost),
        options.mail ?? MailSender.log,
        IdGenerator.layer,
        Provisioners.layer(options.provisioners ?? [workbayProvisioner])
      )
    )
  )

type Services = Layer.Layer.Success<ReturnType<typeof servicesLayer>>

/** The services and ports a Workbay runtime holds (what `Workbay.run` may use). */
export type WorkbayServices = Services

/** Options of `layer`: the HTTP options, and the background work (each default on; `false` turns it off). */
export interface LayerOptions extends HttpOptions {
  readonly retention?: false | RetentionOptions | undefined
  readonly hangDetector?: false | HangDetectorOptions | undefined
}

/**
 * The handler as a layer, for applications built with Effect. It also runs the background work
 * (the retention purge, the provisioner jobs' hang detector) unless told not to.
 */
export const layer = (options?: LayerOptions): Layer.Layer<WorkbayHandler, never, Services | Auth | Settings> =>
  Layer.mergeAll(
    Layer.effect(
      WorkbayHandler,
      Effect.map(Effect.runtime<Services | Auth | Settings>(), (runtime) => {
        const dispatcher = makeDispatcher(WorkbayApi, implementations as ReadonlyArray<GroupImplementation<any>>, runtime, options)
        return { node: toNodeHandler(dispatcher), web: toWebHandler(dispatcher), dispatcher }
      })
    ),
    options?.retention === false ? Layer.empty : Retention.periodic(options?.retention ?? {}),
    options?.hangDetector === false ? Layer.empty : HangDetector.periodic(options?.hangDetector ?? {})
  )

export interface Workbay extends WorkbayHandlerShape {
  /**
   * Runs an effect on the service's runtime (its storage and services): for in-process callers
   * such as agents recording connections (`AuditLogs.connect`), and for tests.
   */
  readonly run: <A, E>(effect: Effect.Effect<A, E, WorkbayServices>) => Promise<A>
  /** Stops the background work and closes storage connections. */
  readonly dispose: () => Promise<void>
}

/** Builds the service on `storage` (runs migrations) and returns its handlers. */
export const makeWorkbay = async <E>(
  storage: Layer.Layer<StoragePorts, E>,
  options: WorkbayOptions = {}
): Promise<Workbay> => {
  const runtime = ManagedRuntime.make(
    layer({ ...options.http, retention: options.retention, hangDetector: options.hangDetector }).pipe(Layer.provideMerge(servicesLayer(storage, options)))
  )
  const handler = await runtime.runPromise(WorkbayHandler)
  return { ...handler, run: (effect) => runtime.runPromise(effect), dispose: () => runtime.dispose() }
}
