/**
 * The daemon's word that a container of this deployment was removed (its `destroy` event, filtered
 * on the deployment's label), as a stream of the workspace and the container. Whoever removed it:
 * the consumer decides whether it was a build of Workbay's own (core's `stopVanishedMachine`
 * ignores those). The event stream is opened again after a pause when it ends or fails (a daemon
 * restarted), so a long-running server keeps hearing.
 */
import { Settings, stopVanishedMachine } from "@workbay/core"
import type Docker from "dockerode"
import { Duration, Effect, Schedule, Stream } from "effect"
import { DockerError, refuseRedirects } from "./Client.js"
import { LABEL_DEPLOYMENT, LABEL_WORKSPACE_ID } from "./Labels.js"

export interface ContainerRemoved {
  readonly workspaceId: string
  /** The container's id as its build's resource shows it (the first 12 hex digits). */
  readonly containerId: string
}

interface DaemonEvent {
  readonly Type?: string
  readonly Action?: string
  readonly id?: string
  readonly Actor?: { readonly ID?: string; readonly Attributes?: Readonly<Record<string, string>> }
}

/** One connection's events: ends when the daemon closes the stream. */
const removalsOnce = (docker: Docker, deploymentId: string): Stream.Stream<ContainerRemoved, DockerError> =>
  Stream.async<ContainerRemoved, DockerError>((emit) => {
    let stream: NodeJS.ReadableStream | undefined
    let buffered = ""
    refuseRedirects(docker).getEvents(
      { filters: { type: ["container"], event: ["destroy"], label: [`${LABEL_DEPLOYMENT}=${deploymentId}`] } },
      (error, events) => {
        if (error !== null && error !== undefined) {
          void emit.fail(new DockerError({ action: "follow the daemon's events", status: 0, message: String(error) }))
          return
        }
        stream = events!
        stream.on("data", (chunk: Buffer) => {
          buffered += chunk.toString("utf8")
          let newline = buffered.indexOf("\n")
          while (newline >= 0) {
            const line = buffered.slice(0, newline).trim()
            buffered = buffered.slice(newline + 1)
            newline = buffered.indexOf("\n")
            if (line === "") continue
            try {
              const event = JSON.parse(line) as DaemonEvent
              const workspaceId = event.Actor?.Attributes?.[LABEL_WORKSPACE_ID]
              const id = event.Actor?.ID ?? event.id ?? ""
              if (workspaceId !== undefined && id !== "") {
                void emit.single({ workspaceId, containerId: id.slice(0, 12) })
              }
            } catch {
              // Not an event: skipped.
            }
          }
        })
        stream.on("end", () => void emit.end())
        stream.on(
          "error",
          (e) =>
            void emit.fail(new DockerError({ action: "follow the daemon's events", status: 0, message: String(e) }))
        )
      }
    )
    return Effect.sync(() => (stream as { destroy?: () => void } | undefined)?.destroy?.())
  })

/** Removals of this deployment's containers, for as long as it is consumed; reconnects every `pause` (default 5 s). */
export const containerRemovals = (
  docker: Docker,
  deploymentId: string,
  pause: Duration.DurationInput = Duration.seconds(5)
): Stream.Stream<ContainerRemoved> =>
  removalsOnce(docker, deploymentId).pipe(
    Stream.catchAll((e) => Stream.fromEffect(Effect.logWarning(`Docker events: ${e.message}`)).pipe(Stream.drain)),
    Stream.concat(Stream.fromEffect(Effect.sleep(pause)).pipe(Stream.drain)),
    Stream.repeat(Schedule.forever)
  )

/**
 * Stops the workspaces whose containers are removed outside Workbay (core's `stopVanishedMachine`),
 * for as long as it runs: run it on the service's runtime, forked
 * (`workbay.run(Effect.forkDaemon(watchVanishedContainers(docker)))`), as the standalone server does.
 */
export const watchVanishedContainers = (docker: Docker) =>
  Effect.flatMap(Settings, (settings) =>
    Stream.runForEach(
      containerRemovals(docker, settings.deploymentId),
      (gone) => stopVanishedMachine({ workspaceId: gone.workspaceId, key: "container_id", value: gone.containerId })
    ))
