/**
 * Assembly: the services on a storage layer, and the handlers that serve them.
 * `layer` is for Effect users; `makeWorkbay` for everybody else.
 */
import {
  type Auth, IdGenerator, MailSender, PasswordHasher, ServicesLive, Settings, type SettingsShape
} from "@workbay/core"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import type { StoragePorts } from "@workbay/storage-sql"
import { type NodeHandler, toNodeHandler, toWebHandler, type WebHandler } from "./Adapters.js"
import { WorkbayApi } from "./Api.js"
import { AuthorizationHttp, SessionHttp } from "./authorization/Http.js"
import { type Dispatcher, type HttpOptions, makeDispatcher } from "./Dispatcher.js"
import type { GroupImplementation } from "./Handlers.js"
import { DeploymentHttp, GeneralHttp } from "./general/Http.js"
import { OrganizationsHttp } from "./organizations/Http.js"
import { UsersHttp } from "./users/Http.js"
import { AuditHttp } from "./audit/Http.js"
import { GroupsHttp } from "./groups/Http.js"

/** Every group's handlers. */
export const implementations = [
  GeneralHttp, DeploymentHttp, AuthorizationHttp, SessionHttp, UsersHttp, OrganizationsHttp, GroupsHttp, AuditHttp
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
        IdGenerator.layer
      )
    )
  )

type Services = Layer.Layer.Success<ReturnType<typeof servicesLayer>>

/** The handler as a layer, for applications built with Effect. */
export const layer = (options?: HttpOptions): Layer.Layer<WorkbayHandler, never, Services | Auth | Settings> =>
  Layer.effect(
    WorkbayHandler,
    Effect.map(Effect.runtime<Services | Auth | Settings>(), (runtime) => {
      const dispatcher = makeDispatcher(WorkbayApi, implementations as ReadonlyArray<GroupImplementation<any>>, runtime, options)
      return { node: toNodeHandler(dispatcher), web: toWebHandler(dispatcher), dispatcher }
    })
  )

export interface Workbay extends WorkbayHandlerShape {
  /** Closes storage connections. */
  readonly dispose: () => Promise<void>
}

/** Builds the service on `storage` (runs migrations) and returns its handlers. */
export const makeWorkbay = async <E>(
  storage: Layer.Layer<StoragePorts, E>,
  options: WorkbayOptions = {}
): Promise<Workbay> => {
  const runtime = ManagedRuntime.make(layer(options.http).pipe(Layer.provideMerge(servicesLayer(storage, options))))
  const handler = await runtime.runPromise(WorkbayHandler)
  return { ...handler, dispose: () => runtime.dispose() }
}
