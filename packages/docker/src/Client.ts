/**
 * The Docker Engine API, as the provisioner uses it: dockerode's calls wrapped in Effects that
 * fail with the daemon's own message (`DockerError`), each bounded in time so a daemon that
 * stops answering fails a build instead of holding it.
 */
import Docker from "dockerode"
import { Data, Duration, Effect } from "effect"

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
}

/** A dockerode client for `connection` (docker-modem reads `DOCKER_HOST` when no host is given). */
export const dockerClient = (connection: DockerConnection = {}): Docker => {
  const host = connection.host ?? ""
  if (host === "") return new Docker()
  if (host.startsWith("unix://")) return new Docker({ socketPath: host.slice("unix://".length) })
  if (host.startsWith("/")) return new Docker({ socketPath: host })
  const url = new URL(host.replace(/^tcp:/, "http:"))
  return new Docker({ host: url.hostname, port: Number(url.port || 2375), protocol: "http" })
}

const daemonMessage = (error: unknown): { status: number; message: string } => {
  const e = error as { statusCode?: unknown; json?: { message?: unknown } | null; reason?: unknown; message?: unknown }
  const status = typeof e?.statusCode === "number" ? e.statusCode : 0
  const fromJson = e?.json !== null && typeof e?.json === "object" && typeof e.json.message === "string"
    ? e.json.message
    : undefined
  const message = fromJson ?? (typeof e?.message === "string" ? e.message : String(error))
  return { status, message: message.trim() }
}

/** The longest any single call may take (pulls excepted): a daemon that hangs fails the build. */
export const CALL_TIMEOUT = Duration.minutes(2)

/** Runs one daemon call; its failure carries the daemon's message. */
export const call = <A>(action: string, f: () => Promise<A>, timeout: Duration.DurationInput = CALL_TIMEOUT) =>
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

/** Whether the daemon answers, and its version. */
export const ping = (docker: Docker) =>
  Effect.zipRight(
    call("reach the Docker daemon", () => docker.ping(), Duration.seconds(5)),
    call("read the Docker daemon's version", () => docker.version(), Duration.seconds(5))
  )

/** `undefined` for a 404 (no such thing), else the value or the failure. */
export const orMissing = <A>(effect: Effect.Effect<A, DockerError>): Effect.Effect<A | undefined, DockerError> =>
  Effect.catchIf(effect, (e) => e.status === 404, () => Effect.succeed(undefined))

/** `label=value` filters, as the daemon's list calls take them. */
export const labelFilter = (labels: Readonly<Record<string, string>>) =>
  JSON.stringify({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) })
