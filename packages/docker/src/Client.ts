/**
 * The Docker Engine API, as the provisioner uses it: dockerode's calls wrapped in Effects that
 * fail with the daemon's own message (`DockerError`), each bounded in time so a daemon that
 * stops answering fails a build instead of holding it. The client never follows a redirect.
 */
import Docker from "dockerode"
import { Data, Duration, Effect } from "effect"
import { readFileSync } from "node:fs"
import { Agent as HttpAgent, type AgentOptions, type ClientRequest, type IncomingMessage } from "node:http"
import { Agent as HttpsAgent } from "node:https"
import { join } from "node:path"

/** A call the daemon refused or never answered: `message` is the daemon's (or the connection's) own words. */
export class DockerError extends Data.TaggedError("DockerError")<{
  /** What was being done ("create the container workbay-alice-dev"). */
  readonly action: string
  /** The HTTP status the daemon answered; 0 when it was not reached. */
  readonly status: number
  readonly message: string
}> {}

/** Where the daemon listens: `DOCKER_HOST` (unix:// or tcp://), else /var/run/docker.sock. */
export interface DockerConnection {
  /** A `DOCKER_HOST`-style address; empty or absent for the environment's or the default socket. */
  readonly host?: string | undefined
  /**
   * A folder holding `ca.pem`, `cert.pem` and `key.pem`, as Docker's `DOCKER_CERT_PATH`: a tcp://
   * daemon is then reached over TLS (port 2376 by default), its certificate checked against
   * `ca.pem` and this client's certificate presented, as a daemon started with `--tlsverify` asks.
   */
  readonly certPath?: string | undefined
}

/**
 * A dockerode client for `connection` (docker-modem reads `DOCKER_HOST` when no host is given),
 * which never follows a redirect (`refuseRedirects`).
 */
export const dockerClient = (connection: DockerConnection = {}): Docker => {
  const host = connection.host ?? ""
  if (host === "") return refuseRedirects(new Docker())
  if (host.startsWith("unix://")) return refuseRedirects(new Docker({ socketPath: host.slice("unix://".length) }))
  if (host.startsWith("/")) return refuseRedirects(new Docker({ socketPath: host }))
  const url = new URL(host.replace(/^tcp:/, "http:"))
  const certPath = connection.certPath ?? ""
  if (certPath !== "") {
    const read = (file: string) => readFileSync(join(certPath, file))
    return refuseRedirects(
      new Docker({
        host: url.hostname,
        port: Number(url.port || 2376),
        protocol: "https",
        ca: read("ca.pem"),
        cert: read("cert.pem"),
        key: read("key.pem")
      })
    )
  }
  return refuseRedirects(new Docker({ host: url.hostname, port: Number(url.port || 2375), protocol: "http" }))
}

/** Node's own agent's settings (`http.globalAgent`), which the modem's requests used before. */
const agentOptions: AgentOptions = { keepAlive: true, scheduling: "lifo", timeout: 5_000 }

/**
 * A response's `Location` is dropped when the status is a redirect, before any other listener of
 * the request sees it: docker-modem's request code ("based on follow-redirects") would otherwise
 * follow it, and a location that is no http(s) URL makes it throw inside the response's event,
 * which ends the process. The redirect then fails the call with its status like any other answer.
 */
const dropRedirectLocation = (req: ClientRequest) =>
  req.prependListener("response", (res: IncomingMessage) => {
    const status = res.statusCode ?? 0
    if (status >= 300 && status < 400) delete res.headers.location
  })

/** `agent.addRequest(req, options)`: where Node's agents receive each request (not in Node's types). */
interface AddRequest {
  addRequest(req: ClientRequest, options: unknown): void
}

class NoRedirectsHttpAgent extends HttpAgent {
  addRequest(req: ClientRequest, options: unknown) {
    dropRedirectLocation(req)
    ;(HttpAgent.prototype as unknown as AddRequest).addRequest.call(this, req, options)
  }
}

class NoRedirectsHttpsAgent extends HttpsAgent {
  addRequest(req: ClientRequest, options: unknown) {
    dropRedirectLocation(req)
    ;(HttpsAgent.prototype as unknown as AddRequest).addRequest.call(this, req, options)
  }
}

const guarded = Symbol.for("@workbay/docker/refuseRedirects")

interface Modem {
  protocol?: string
  buildRequest: (options: Record<string, unknown>, ...rest: Array<unknown>) => void
  [guarded]?: true
}

/**
 * Makes every request of `docker` refuse redirects, and answers it: a redirect from the daemon is
 * a failed call ("the Docker daemon answered with a redirect (301), which Workbay does not
 * follow"), and nothing is sent to where it points. The daemon answers a path it cleans (a name
 * holding `/` or `..`) with a redirect; followed, it was a request to any host a name spelled.
 * Two locks, because docker-modem's request code follows redirects itself: each request is sent
 * with `maxRedirects: 0` (so a followed location ends as an error of the request the modem
 * listens to), and through an agent that drops a redirect's `Location` before that code reads it
 * (so a location it cannot follow, `mailto:x`, throws nowhere). The modem's ssh transport brings
 * its own agent: there only the first lock holds. Calling it again on the same client changes nothing.
 */
export const refuseRedirects = (docker: Docker): Docker => {
  const modem = docker.modem as unknown as Modem
  if (modem[guarded] === true) return docker
  const agent = modem.protocol === "https"
    ? new NoRedirectsHttpsAgent(agentOptions)
    : new NoRedirectsHttpAgent(agentOptions)
  const buildRequest = modem.buildRequest
  modem.buildRequest = function(this: Modem, options, ...rest) {
    buildRequest.call(this, { agent, ...options, maxRedirects: 0 }, ...rest)
  }
  modem[guarded] = true
  return docker
}

/** The message of a redirect the client refused. */
export const redirectRefused = (status: number) =>
  `the Docker daemon answered with a redirect${status === 0 ? "" : ` (${status})`}, which Workbay does not follow`

const daemonMessage = (error: unknown): { status: number; message: string } => {
  const e = error as { statusCode?: unknown; json?: { message?: unknown } | null; reason?: unknown; message?: unknown }
  const status = typeof e?.statusCode === "number" ? e.statusCode : 0
  if (status >= 300 && status < 400) return { status, message: redirectRefused(status) }
  // docker-modem's own words when `maxRedirects: 0` stopped a redirect (the ssh transport's case).
  if (typeof e?.message === "string" && e.message.startsWith("Max redirects exceeded")) {
    return { status: 0, message: redirectRefused(0) }
  }
  const fromJson = e?.json !== null && typeof e?.json === "object" && typeof e.json.message === "string"
    ? e.json.message
    : undefined
  const message = fromJson ?? (typeof e?.message === "string" ? e.message : String(error))
  return { status, message: message.trim() }
}

/** The longest any single call may take (pulls excepted): a daemon that hangs fails the build. */
export const CALL_TIMEOUT = Duration.minutes(2)

/** Runs one daemon call; its failure carries the daemon's message. */
export const call = <A>(
  action: string,
  /** The call; `signal` aborts when the call times out or is interrupted. */
  f: (signal: AbortSignal) => Promise<A>,
  timeout: Duration.DurationInput = CALL_TIMEOUT
) =>
  Effect.tryPromise({
    try: f,
    catch: (error) => new DockerError({ action, ...daemonMessage(error) })
  }).pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () =>
        new DockerError({
          action,
          status: 0,
          message: `the Docker daemon did not answer within ${Duration.format(timeout)}`
        })
    })
  )

/**
 * Whether the daemon answers, and its version: one round trip (`GET /version` answers only from a
 * daemon that `GET /_ping` would find up; asking both cost a start-up a second round trip).
 */
export const ping = (docker: Docker) => call("reach the Docker daemon", () => docker.version(), Duration.seconds(5))

/** `undefined` for a 404 (no such thing), else the value or the failure. */
export const orMissing = <A>(effect: Effect.Effect<A, DockerError>): Effect.Effect<A | undefined, DockerError> =>
  Effect.catchIf(effect, (e) => e.status === 404, () => Effect.succeed(undefined))

/** `label=value` filters, as the daemon's list calls take them. */
export const labelFilter = (labels: Readonly<Record<string, string>>) =>
  JSON.stringify({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) })
