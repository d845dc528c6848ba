/**
 * Placement (docs/provisioner-daemons.md, "Placement"): which host a workspace's first start runs
 * on, chosen by free capacity among the hosts whose daemons could run it.
 *
 * The rule: the candidates are the organization's connected hosts (reported within 30 s), not drained, serving
 * the job's provisioner type with tags that take the job's. A host's free memory is its memory less
 * what its running workspace containers were promised and what placements counted against it that
 * its reports may not show yet (jobs placed there, unfinished or ended within
 * {@link PLACEMENT_HOLD}); its free CPUs likewise. A host has room when its free memory covers
 * the memory the template asks, the CPUs asked are at most its CPUs (the engine refuses more),
 * and its free disk, when known, is at least {@link MIN_DISK_FREE}. Of the hosts with room, K =
 * {@link PLACEMENT_CHOICES} are drawn at random and the best scored wins (all of them when there
 * are at most K): the score is 0.7 x the share of its memory left free after the start plus 0.3 x
 * the share of its CPUs left free. Drawing K instead of taking the single best keeps starts that
 * arrive together (on several replicas, before the next reports) from all landing on one host.
 * None with room: the build fails with a message that says what it asked and what the freest host
 * has. No candidate at all (no host reports, or none serves the job): the job is not placed, and
 * any worker that serves it may take it (a host's daemon then stamps its host on it).
 */
import { Clock, Duration, Effect, Random } from "effect"
import { span } from "../Tracing.js"
import { hostStatus, type ProvisionerHostRecord } from "./ProvisionerHost.js"
import { ProvisionerHosts } from "./ProvisionerHosts.js"
import { ProvisionerJobRepo, type ProvisionerTags, tagsMatch } from "./ProvisionerJob.js"

/** Hosts drawn at random among those with room; the best scored of them wins. */
export const PLACEMENT_CHOICES = 3
/** A placement counts against its host until this long after its job ended (the host's next reports show the container by then). */
export const PLACEMENT_HOLD: Duration.Duration = Duration.seconds(30)
/** A host with less free disk (when its daemon can see it) takes no new workspace. */
export const MIN_DISK_FREE = 1024 ** 3

/** What a start asks of its host. */
export interface PlacementAsk {
  readonly organization_id: string
  readonly provisioner: string
  /** The job's tags, as the queue will store them (mutated). */
  readonly tags: ProvisionerTags
  readonly memory_bytes: number
  readonly cpus: number
}

export type PlacementDecision =
  | { readonly _tag: "Unplaced" }
  | { readonly _tag: "Placed"; readonly host: string; readonly ask: PlacementAsk }
  | { readonly _tag: "NoRoom"; readonly message: string }

/** A candidate host's free capacity. */
export interface HostRoom {
  readonly host: ProvisionerHostRecord
  readonly freeMemory: number
  readonly freeCpus: number
}

/** The free capacity of a host, placements counted. */
export const roomOf = (
  host: ProvisionerHostRecord,
  placed: { readonly memory_bytes: number; readonly cpus: number } | undefined
): HostRoom => ({
  host,
  freeMemory: host.memory_bytes - host.memory_promised_bytes - (placed?.memory_bytes ?? 0),
  freeCpus: host.cpus - host.cpus_promised - (placed?.cpus ?? 0)
})

export const hasRoom = (r: HostRoom, ask: Pick<PlacementAsk, "memory_bytes" | "cpus">) =>
  r.freeMemory >= ask.memory_bytes && ask.cpus <= r.host.cpus &&
  (r.host.disk_free_bytes === null || r.host.disk_free_bytes >= MIN_DISK_FREE)

export const scoreOf = (r: HostRoom, ask: Pick<PlacementAsk, "memory_bytes" | "cpus">) =>
  0.7 * (r.freeMemory - ask.memory_bytes) / r.host.memory_bytes +
  0.3 * Math.max(-1, (r.freeCpus - ask.cpus) / r.host.cpus)

const GIB = 1024 ** 3
const MIB = 1024 ** 2
/** A size for a message: `1.5 GiB`, `512 MiB`. */
export const formatSize = (bytes: number) =>
  bytes >= GIB ? `${Math.round((bytes / GIB) * 10) / 10} GiB` : `${Math.max(0, Math.round(bytes / MIB))} MiB`
const formatCpus = (cpus: number) => `${Math.round(cpus * 100) / 100} CPU${cpus === 1 ? "" : "s"}`

/**
 * The decision for `ask` among `candidates` (hosts that serve it), `draw(n)` picking an index
 * below n: the rule of this module's comment.
 */
export const decidePlacement = (
  candidates: ReadonlyArray<HostRoom>,
  ask: PlacementAsk,
  draw: (n: number) => number
): PlacementDecision => {
  if (candidates.length === 0) return { _tag: "Unplaced" }
  const roomy = candidates.filter((r) => hasRoom(r, ask))
  if (roomy.length === 0) {
    const freest = [...candidates].sort((a, b) => b.freeMemory - a.freeMemory)[0]!
    const wants = ask.memory_bytes === 0 && ask.cpus === 0
      ? "it asks no set memory or CPUs"
      : `it asks ${formatSize(ask.memory_bytes)} of memory and ${formatCpus(ask.cpus)}`
    const disk = freest.host.disk_free_bytes !== null && freest.host.disk_free_bytes < MIN_DISK_FREE
      ? ` and ${formatSize(freest.host.disk_free_bytes)} of disk (at least ${formatSize(MIN_DISK_FREE)} is kept free)`
      : ""
    return {
      _tag: "NoRoom",
      message: `No provisioner host has room for this workspace: ${wants}; of ${candidates.length} connected host${
        candidates.length === 1 ? "" : "s"
      }, the freest (${freest.host.name}) has ${formatSize(freest.freeMemory)} of memory free of ${
        formatSize(freest.host.memory_bytes)
      }, ${freest.host.cpus} CPUs${disk}.`
    }
  }
  let drawn = roomy
  if (roomy.length > PLACEMENT_CHOICES) {
    const pool = [...roomy]
    drawn = []
    for (let i = 0; i < PLACEMENT_CHOICES; i++) drawn.push(pool.splice(draw(pool.length), 1)[0]!)
  }
  const best = drawn.reduce((a, b) => (scoreOf(b, ask) > scoreOf(a, ask) ? b : a))
  return { _tag: "Placed", host: best.host.name, ask }
}

export class Placement extends Effect.Service<Placement>()("@workbay/core/Placement", {
  effect: Effect.gen(function*() {
    const hosts = yield* ProvisionerHosts
    const jobs = yield* ProvisionerJobRepo

    /**
     * Places a start: `demand` (what the template asks, read only when some host could take the
     * job) with the job's organization, type and tags.
     */
    const place = (
      job: Omit<PlacementAsk, "memory_bytes" | "cpus">,
      demand: Effect.Effect<{ readonly memory_bytes: number; readonly cpus: number } | undefined>
    ) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const serving = (yield* hosts.records(job.organization_id)).filter((h) =>
          hostStatus(h, at) === "connected" && h.draining !== true && h.provisioners.includes(job.provisioner) &&
          tagsMatch(job.tags, h.tags)
        )
        if (serving.length === 0) return { _tag: "Unplaced" } satisfies PlacementDecision
        const asked = yield* demand
        const ask: PlacementAsk = { ...job, memory_bytes: asked?.memory_bytes ?? 0, cpus: asked?.cpus ?? 0 }
        const placed = yield* jobs.placedLoad(job.organization_id, new Date(at - Duration.toMillis(PLACEMENT_HOLD)))
        const rooms = serving.map((h) => roomOf(h, placed.get(h.name)))
        const draws: Array<number> = []
        for (let i = 0; i < PLACEMENT_CHOICES; i++) draws.push(yield* Random.nextIntBetween(0, 1_000_000))
        let i = 0
        return decidePlacement(rooms, ask, (n) => draws[i++]! % n)
      }).pipe(span("Placement.place"))

    return { place } as const
  })
}) {}
