/**
 * The agent connections of this process that carry requests to an agent's machine: HTTP requests to
 * its apps (AppProxy.ts), its listening ports (ListeningPorts.ts), its dev containers
 * (Containers.ts) and byte streams (Streams.ts), each as JSON frames over the agent's own
 * connection (`/workspaceagents/me/rpc`), since the agent is not assumed reachable from the server.
 *
 * The tunnels live in memory, per process: a request is carried by the process the agent is
 * connected to; another process relays it there (Holder.ts decides; the relay is http's).
 */
import { Deferred, Duration, Effect, Exit, Option, Queue, type Scope, Stream } from "effect"
import { acquireReleaseInPlace } from "../ContextOverlay.js"
import { BadGateway, GatewayTimeout } from "../Errors.js"
import { CurrentAgent } from "./AgentAuth.js"
import type { AgentChannelOut } from "./Connection.js"

/** The largest response body carried back from an app; past it the answer is cut. */
export const APP_PROXY_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
/** The largest body piece an agent sends in one `app_body` frame (before base64). */
export const APP_PROXY_CHUNK_BYTES = 16 * 1024
/** How long the agent has to answer a request's status and headers (504 past it). */
export const APP_PROXY_RESPONSE_TIMEOUT_SECONDS = 30

/** Header names to their values, as HTTP carries them. */
export type HeaderMap = Readonly<Record<string, ReadonlyArray<string>>>

/** What the agent is asked to do: one HTTP request against its local app. */
export interface TunnelRequest {
  readonly method: string
  /** The full target URL, on the app's `url`. */
  readonly url: string
  readonly headers: HeaderMap
  readonly body: Uint8Array
}

export interface AppResponseHead {
  readonly status: number
  readonly headers: HeaderMap
}

/** The app's answer: status and headers, and the body as it streams in. */
export interface AppResponse extends AppResponseHead {
  /** The body's pieces; fails when the agent reports an error mid-way or the connection ends. */
  readonly body: Stream.Stream<Uint8Array, BadGateway>
}

// ---------------------------------------------------------------------------
// Tunnels: the agents' connections in this process, and their requests in flight

type BodyItem = Uint8Array | { readonly end: true; readonly error?: string | undefined }

interface PendingRequest {
  readonly head: Deferred.Deferred<AppResponseHead, BadGateway>
  readonly body: Queue.Queue<BodyItem>
  bytes: number
  /** No more frames are taken (the answer ended, broke off or was cut). */
  ended: boolean
  /** The agent is done with it (its `app_end`, or its connection closed): nothing to cancel. */
  finished: boolean
}

/** One agent connection able to carry requests. */
export interface Tunnel {
  readonly agentId: string
  readonly send: (text: string) => Effect.Effect<void>
  readonly pending: Map<string, PendingRequest>
  /** Listening ports asked of the agent, by request id (docs/agents.md, "Listening ports"). */
  readonly portQueries: Map<string, Deferred.Deferred<ReadonlyArray<ListeningPort>, BadGateway>>
  /** Dev container requests asked of the agent, by request id (docs/agents.md, "Dev containers"). */
  readonly containerQueries: Map<string, Deferred.Deferred<ContainersAnswer, BadGateway>>
}

/** An agent's `containers_response`: an HTTP-like status and its JSON body. */
export interface ContainersAnswer {
  readonly status: number
  readonly body: unknown
}

/** How long the agent has to answer a `containers_request`, in seconds (the described system's 30). */
export const CONTAINERS_TIMEOUT_SECONDS = 30

/** A port the agent's machine listens on, as its `listening_ports` answer names it (codersdk `WorkspaceAgentListeningPort`). */
export interface ListeningPort {
  readonly process_name: string
  readonly network: string
  readonly port: number
}

/** How long the agent has to answer a `listening_ports_request`, in seconds (the described system's 30). */
export const LISTENING_PORTS_TIMEOUT_SECONDS = 30

/** The ports of an agent's `listening_ports` answer that are well formed, at most 65,536 of them. */
const portsOf = (raw: unknown): ReadonlyArray<ListeningPort> =>
  (Array.isArray(raw) ? raw : []).slice(0, 65536).flatMap((p) => {
    if (p === null || typeof p !== "object") return []
    const { port, process_name, network } = p as Record<string, unknown>
    if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535) return []
    return [{
      port,
      process_name: typeof process_name === "string" ? process_name.slice(0, 256) : "",
      network: typeof network === "string" && network !== "" ? network.slice(0, 16) : "tcp"
    }]
  })

/** The frame types an agent sends about requests (consumed before the connection's own messages). */
const TUNNEL_FRAMES = new Set(["app_response", "app_body", "app_end"])

const normalizeHeaders = (raw: unknown): HeaderMap => {
  const out: Record<string, Array<string>> = {}
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return out
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value]
    const strings = values.filter((v): v is string => typeof v === "string")
    if (strings.length > 0 && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out[name.toLowerCase()] = strings
  }
  return out
}

const endWith = (p: PendingRequest, error?: string) => {
  if (p.ended) return
  p.ended = true
  Queue.unsafeOffer(p.body, { end: true, error })
  Deferred.unsafeDone(
    p.head,
    Exit.fail(
      new BadGateway({
        message: "The app did not answer.",
        detail: error ?? "The agent ended the request without an answer."
      })
    )
  )
}

const cancelFrame = (requestId: string) => JSON.stringify({ type: "app_cancel", request_id: requestId })

/** 502 for a request to an agent that has no connection to serve it. */
export const notConnected = () =>
  new BadGateway({
    message: "The workspace agent is not connected.",
    detail: "Start the workspace's agent, then try again."
  })

/**
 * The agent connections of this process that carry app requests, by agent. The agent connection
 * registers itself ({@link withAppTunnel}); {@link AppProxy} sends requests through the newest
 * connection of the agent.
 */
export class AgentTunnels extends Effect.Service<AgentTunnels>()("@workbay/core/AgentTunnels", {
  sync: () => {
    const byAgent = new Map<string, Array<Tunnel>>()

    /** Registers an agent connection for the scope's life; its requests in flight fail (502) when it goes. */
    const attach = (
      agentId: string,
      send: (text: string) => Effect.Effect<void>
    ): Effect.Effect<Tunnel, never, Scope.Scope> =>
      acquireReleaseInPlace(
        Effect.sync(() => {
          const tunnel: Tunnel = {
            agentId,
            send,
            pending: new Map(),
            portQueries: new Map(),
            containerQueries: new Map()
          }
          byAgent.set(agentId, [...(byAgent.get(agentId) ?? []), tunnel])
          return tunnel
        }),
        (tunnel) =>
          Effect.sync(() => {
            const left = (byAgent.get(agentId) ?? []).filter((t) => t !== tunnel)
            if (left.length === 0) byAgent.delete(agentId)
            else byAgent.set(agentId, left)
            for (const p of tunnel.pending.values()) {
              p.finished = true
              endWith(p, "The workspace agent's connection closed.")
            }
            tunnel.pending.clear()
            for (const q of tunnel.portQueries.values()) {
              Deferred.unsafeDone(
                q,
                Exit.fail(
                  new BadGateway({
                    message: "The workspace agent did not answer.",
                    detail: "The workspace agent's connection closed."
                  })
                )
              )
            }
            tunnel.portQueries.clear()
            for (const q of tunnel.containerQueries.values()) {
              Deferred.unsafeDone(
                q,
                Exit.fail(
                  new BadGateway({
                    message: "The workspace agent did not answer.",
                    detail: "The workspace agent's connection closed."
                  })
                )
              )
            }
            tunnel.containerQueries.clear()
          })
      )

    /**
     * Takes an agent's text message when it is a frame of a request (`app_response`, `app_body`,
     * `app_end`); answers false for any other message, which the connection handles as usual.
     * Frames of a request no longer waited for (canceled, cut) are dropped.
     */
    const receive = (tunnel: Tunnel, text: string): boolean => {
      if (
        !text.includes("\"app_") && !text.includes("\"listening_ports\"") && !text.includes("\"containers_response\"")
      ) return false
      let message: Record<string, unknown>
      try {
        message = JSON.parse(text)
      } catch {
        return false
      }
      if (message !== null && typeof message === "object" && message.type === "containers_response") {
        const q = typeof message.request_id === "string" ? tunnel.containerQueries.get(message.request_id) : undefined
        if (q !== undefined) {
          tunnel.containerQueries.delete(message.request_id as string)
          const status = message.status
          Deferred.unsafeDone(
            q,
            typeof status === "number" && Number.isInteger(status) && status >= 200 && status <= 599
              ? Exit.succeed({ status, body: message.body })
              : Exit.fail(
                new BadGateway({
                  message: "The workspace agent could not answer about its containers.",
                  detail: typeof message.error === "string" && message.error !== ""
                    ? message.error.slice(0, 512)
                    : `The agent answered the status ${JSON.stringify(status)}.`
                })
              )
          )
        }
        return true
      }
      if (message !== null && typeof message === "object" && message.type === "listening_ports") {
        const q = typeof message.request_id === "string" ? tunnel.portQueries.get(message.request_id) : undefined
        if (q !== undefined) {
          tunnel.portQueries.delete(message.request_id as string)
          Deferred.unsafeDone(
            q,
            typeof message.error === "string" && message.error !== ""
              ? Exit.fail(
                new BadGateway({
                  message: "The workspace agent could not list its ports.",
                  detail: message.error.slice(0, 512)
                })
              )
              : Exit.succeed(portsOf(message.ports))
          )
        }
        return true
      }
      if (message === null || typeof message !== "object" || !TUNNEL_FRAMES.has(message.type as string)) return false
      const requestId = message.request_id
      const p = typeof requestId === "string" ? tunnel.pending.get(requestId) : undefined
      if (p === undefined || p.ended) return true
      switch (message.type) {
        case "app_response": {
          const status = message.status
          if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
            endWith(p, `The agent answered the status ${JSON.stringify(status)}, not one from 200 to 599.`)
            break
          }
          Deferred.unsafeDone(p.head, Exit.succeed({ status, headers: normalizeHeaders(message.headers) }))
          break
        }
        case "app_body": {
          if (typeof message.data !== "string") {
            endWith(p, "The agent sent a body piece without base64 data.")
            break
          }
          const bytes = new Uint8Array(Buffer.from(message.data, "base64"))
          p.bytes += bytes.length
          if (p.bytes > APP_PROXY_MAX_RESPONSE_BYTES) {
            // Cut: the body fails, and its release tells the agent to cancel.
            endWith(p, `The app's answer is over ${APP_PROXY_MAX_RESPONSE_BYTES} bytes.`)
            break
          }
          Queue.unsafeOffer(p.body, bytes)
          break
        }
        case "app_end":
          p.finished = true
          endWith(
            p,
            typeof message.error === "string" && message.error !== "" ? message.error.slice(0, 512) : undefined
          )
          break
      }
      return true
    }

    /** Whether the agent has a connection in this process. */
    const connectedHere = (agentId: string) => (byAgent.get(agentId)?.length ?? 0) > 0

    /** Sends a notification on the agent's newest connection here; false when it has none. */
    const notify = (agentId: string, text: string): Effect.Effect<boolean> => {
      const tunnel = byAgent.get(agentId)?.at(-1)
      return tunnel === undefined ? Effect.succeed(false) : Effect.as(tunnel.send(text), true)
    }

    /** The agent's newest connection here, or 502 when it has none. */
    const newestTunnel = (agentId: string) => {
      const tunnel = byAgent.get(agentId)?.at(-1)
      return tunnel === undefined ? Effect.fail(notConnected()) : Effect.succeed(tunnel)
    }

    /**
     * Sends `request` through the agent's newest connection here and waits for the status and
     * headers (GatewayTimeout after APP_PROXY_RESPONSE_TIMEOUT_SECONDS). The body streams after;
     * when it is not read to its end (the client left), the agent is told to cancel.
     */
    const forward = (
      agentId: string,
      request: TunnelRequest
    ): Effect.Effect<AppResponse, BadGateway | GatewayTimeout> =>
      Effect.gen(function*() {
        const tunnel = yield* newestTunnel(agentId)
        const requestId = crypto.randomUUID()
        const p: PendingRequest = {
          head: yield* Deferred.make<AppResponseHead, BadGateway>(),
          body: yield* Queue.unbounded<BodyItem>(),
          bytes: 0,
          ended: false,
          finished: false
        }
        tunnel.pending.set(requestId, p)
        // When the body is done with, however (read to its end, cut, the client gone, no answer in time).
        const release = Effect.suspend(() => {
          tunnel.pending.delete(requestId)
          p.ended = true
          if (p.finished) return Effect.void
          p.finished = true
          return tunnel.send(cancelFrame(requestId))
        })
        yield* tunnel.send(JSON.stringify({
          type: "app_request",
          request_id: requestId,
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: Buffer.from(request.body).toString("base64")
        }))
        const head = yield* Deferred.await(p.head).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(APP_PROXY_RESPONSE_TIMEOUT_SECONDS),
            onTimeout: () =>
              new GatewayTimeout({
                message: "The app did not answer in time.",
                detail: `No answer within ${APP_PROXY_RESPONSE_TIMEOUT_SECONDS} seconds.`
              })
          }),
          Effect.onError(() => release)
        )
        const body = Stream.repeatEffectOption(
          Effect.flatMap(Queue.take(p.body), (item) =>
            item instanceof Uint8Array
              ? Effect.succeed(item)
              : item.error === undefined
              ? Effect.fail(Option.none())
              : Effect.fail(
                Option.some(new BadGateway({ message: "The app's answer broke off.", detail: item.error }))
              ))
        ).pipe(Stream.ensuring(release))
        return Object.assign({}, head, { body })
      })

    /**
     * Asks the agent's newest connection here for its listening ports (`listening_ports_request`)
     * and waits for its `listening_ports` answer: 502 when the agent has no connection here or
     * it closes first, 504 after LISTENING_PORTS_TIMEOUT_SECONDS.
     */
    const listeningPorts = (
      agentId: string
    ): Effect.Effect<ReadonlyArray<ListeningPort>, BadGateway | GatewayTimeout> =>
      Effect.gen(function*() {
        const tunnel = yield* newestTunnel(agentId)
        const requestId = crypto.randomUUID()
        const answer = yield* Deferred.make<ReadonlyArray<ListeningPort>, BadGateway>()
        tunnel.portQueries.set(requestId, answer)
        yield* tunnel.send(JSON.stringify({ type: "listening_ports_request", request_id: requestId }))
        return yield* Deferred.await(answer).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(LISTENING_PORTS_TIMEOUT_SECONDS),
            onTimeout: () =>
              new GatewayTimeout({
                message: "The workspace agent did not answer in time.",
                detail: `No list of ports within ${LISTENING_PORTS_TIMEOUT_SECONDS} seconds.`
              })
          }),
          Effect.ensuring(Effect.sync(() => tunnel.portQueries.delete(requestId)))
        )
      })

    /**
     * Asks the agent's newest connection here about its dev containers (`containers_request` with
     * `request`'s fields) and waits for its `containers_response`: 502 when the agent has no
     * connection here or it closes first, 504 after CONTAINERS_TIMEOUT_SECONDS.
     */
    const askContainers = (
      agentId: string,
      request: Readonly<Record<string, unknown>>
    ): Effect.Effect<ContainersAnswer, BadGateway | GatewayTimeout> =>
      Effect.gen(function*() {
        const tunnel = yield* newestTunnel(agentId)
        const requestId = crypto.randomUUID()
        const answer = yield* Deferred.make<ContainersAnswer, BadGateway>()
        tunnel.containerQueries.set(requestId, answer)
        yield* tunnel.send(JSON.stringify({ ...request, type: "containers_request", request_id: requestId }))
        return yield* Deferred.await(answer).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(CONTAINERS_TIMEOUT_SECONDS),
            onTimeout: () =>
              new GatewayTimeout({
                message: "The workspace agent did not answer in time.",
                detail: `No answer about its containers within ${CONTAINERS_TIMEOUT_SECONDS} seconds.`
              })
          }),
          Effect.ensuring(Effect.sync(() => tunnel.containerQueries.delete(requestId)))
        )
      })

    return { attach, receive, connectedHere, notify, forward, listeningPorts, askContainers } as const
  }
}) {}

/**
 * The agent connection's channel with app requests carried over it: registers the calling
 * agent's connection with {@link AgentTunnels} for the scope's life, and takes the request frames
 * out of its incoming messages (the rest go on to the connection's protocol, unchanged).
 */
export const withAppTunnel = <C extends AgentChannelOut>(
  channel: C
): Effect.Effect<C, never, CurrentAgent | AgentTunnels | Scope.Scope> =>
  Effect.gen(function*() {
    const { agent } = yield* CurrentAgent
    const tunnels = yield* AgentTunnels
    const tunnel = yield* tunnels.attach(agent.id, channel.send)
    // App frames are taken out; the protocol sees the messages that are not one.
    const before = channel.intercept
    const intercept = (text: string) => before?.(text) === true || tunnels.receive(tunnel, text)
    return { ...channel, intercept }
  })
