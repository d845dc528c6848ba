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
 *
 * At 10,000 hosts a decision must not read them all (tens of milliseconds): it reads the
 * organization's hosts from a snapshot at most {@link HOST_SNAPSHOT_TTL} (1 s) old
 * (ProvisionerHosts.snapshot: the table and this replica's reports, read once for the starts
 * that arrive meanwhile), its candidates computed once per snapshot for each type and tags asked,
 * and the placed load as read at most as long ago, with the starts this replica placed since that
 * read began counted at once (two starts here in one second never both take the same room; a
 * start placed by another replica counts here from the next read, as its committed job). So the
 * rule is applied to figures up to a second older than the reports and jobs written: a host
 * reported or drained elsewhere counts from the next read (drained here: at once), one that
 * stopped reporting counts as connected up to a second longer, and a start whose job was never
 * written (its transaction refused) counts until the next read. The K are drawn by picking
 * candidates at random and keeping those with room ({@link decideAmong}); every candidate's room
 * is counted only when too few of the draws have room, or none (the refusal names the freest).
 */
import { Duration, Effect, Random } from "effect"
import { span } from "../Tracing.js"
import { hostStatus, type ProvisionerHostRecord } from "./ProvisionerHost.js"
import { HOST_SNAPSHOT_TTL, type HostSnapshot, ProvisionerHosts, readAtMostEvery } from "./ProvisionerHosts.js"
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

type Load = { readonly memory_bytes: number; readonly cpus: number }

const freeMemoryOf = (host: ProvisionerHostRecord, placed: Load | undefined) =>
  host.memory_bytes - host.memory_promised_bytes - (placed?.memory_bytes ?? 0)

/** The free capacity of a host, placements counted. */
export const roomOf = (host: ProvisionerHostRecord, placed: Load | undefined): HostRoom => ({
  host,
  freeMemory: freeMemoryOf(host, placed),
  freeCpus: host.cpus - host.cpus_promised - (placed?.cpus ?? 0)
})

const fits = (host: ProvisionerHostRecord, freeMemory: number, ask: Pick<PlacementAsk, "memory_bytes" | "cpus">) =>
  freeMemory >= ask.memory_bytes && ask.cpus <= host.cpus &&
  (host.disk_free_bytes === null || host.disk_free_bytes >= MIN_DISK_FREE)

export const hasRoom = (r: HostRoom, ask: Pick<PlacementAsk, "memory_bytes" | "cpus">) =>
  fits(r.host, r.freeMemory, ask)

export const scoreOf = (r: HostRoom, ask: Pick<PlacementAsk, "memory_bytes" | "cpus">) =>
  0.7 * (r.freeMemory - ask.memory_bytes) / r.host.memory_bytes +
  0.3 * Math.max(-1, (r.freeCpus - ask.cpus) / r.host.cpus)

const GIB = 1024 ** 3
const MIB = 1024 ** 2
/** A size for a message: `1.5 GiB`, `512 MiB`. */
export const formatSize = (bytes: number) =>
  bytes >= GIB ? `${Math.round((bytes / GIB) * 10) / 10} GiB` : `${Math.max(0, Math.round(bytes / MIB))} MiB`
const formatCpus = (cpus: number) => `${Math.round(cpus * 100) / 100} CPU${cpus === 1 ? "" : "s"}`

/** Up to this many candidates, the ones with room are found by looking at each. */
const SCAN_UP_TO = 32
/**
 * Random draws among more candidates before looking at each: K are found with room among 256 draws
 * unless fewer than about 1 in 30 have it (256 draws cost a few hosts' look each, far less than
 * looking at 10,000).
 */
const DRAW_TRIES = 256

/**
 * The decision for `ask` among `candidates` (hosts that serve it), `draw(n)` picking an index
 * below n: the rule of this module's comment.
 */
export const decidePlacement = (
  candidates: ReadonlyArray<HostRoom>,
  ask: PlacementAsk,
  draw: (n: number) => number
): PlacementDecision =>
  decideAmong(
    {
      count: candidates.length,
      hostAt: (i) => candidates[i]!.host,
      freeMemoryAt: (i) => candidates[i]!.freeMemory,
      roomAt: (i) => candidates[i]!
    },
    ask,
    draw
  )

/** Candidates asked one at a time, so that a decision among 10,000 need not count (or make) every room. */
export interface Candidates {
  readonly count: number
  readonly hostAt: (i: number) => ProvisionerHostRecord
  /** Candidate i's free memory, placements counted (its room's `freeMemory`, without making the room). */
  readonly freeMemoryAt: (i: number) => number
  readonly roomAt: (i: number) => HostRoom
}

/**
 * {@link decidePlacement} among `candidates` asked one at a time: among more than
 * {@link SCAN_UP_TO}, K distinct candidates are drawn at random and kept when they have room
 * (which draws K at random among those with room, as the rule says), and only when
 * {@link DRAW_TRIES} draws did not find K is every candidate looked at (few have room, or none: the
 * refusal names the freest), without making a room for each.
 */
export const decideAmong = (
  candidates: Candidates,
  ask: PlacementAsk,
  draw: (n: number) => number
): PlacementDecision => {
  const { count } = candidates
  if (count === 0) return { _tag: "Unplaced" }
  if (count > SCAN_UP_TO) {
    const seen = new Set<number>()
    const drawn: Array<HostRoom> = []
    for (let t = 0; t < DRAW_TRIES && drawn.length < PLACEMENT_CHOICES; t++) {
      const i = draw(count)
      if (seen.has(i)) continue
      seen.add(i)
      if (fits(candidates.hostAt(i), candidates.freeMemoryAt(i), ask)) drawn.push(candidates.roomAt(i))
    }
    if (drawn.length === PLACEMENT_CHOICES) return bestOf(drawn, ask)
  }
  const roomy: Array<number> = []
  let freest = -1
  let freestMemory = -Infinity
  for (let i = 0; i < count; i++) {
    const free = candidates.freeMemoryAt(i)
    if (fits(candidates.hostAt(i), free, ask)) roomy.push(i)
    else if (free > freestMemory) {
      freest = i
      freestMemory = free
    }
  }
  if (roomy.length === 0) {
    const { freeMemory, host } = candidates.roomAt(freest)
    const wants = ask.memory_bytes === 0 && ask.cpus === 0
      ? "it asks no set memory or CPUs"
      : `it asks ${formatSize(ask.memory_bytes)} of memory and ${formatCpus(ask.cpus)}`
    const disk = host.disk_free_bytes !== null && host.disk_free_bytes < MIN_DISK_FREE
      ? ` and ${formatSize(host.disk_free_bytes)} of disk (at least ${formatSize(MIN_DISK_FREE)} is kept free)`
      : ""
    return {
      _tag: "NoRoom",
      message: `No provisioner host has room for this workspace: ${wants}; of ${count} connected host${
        count === 1 ? "" : "s"
      }, the freest (${host.name}) has ${formatSize(freeMemory)} of memory free of ${
        formatSize(host.memory_bytes)
      }, ${host.cpus} CPUs${disk}.`
    }
  }
  let drawn = roomy
  if (roomy.length > PLACEMENT_CHOICES) {
    const pool = [...roomy]
    drawn = []
    for (let i = 0; i < PLACEMENT_CHOICES; i++) drawn.push(pool.splice(draw(pool.length), 1)[0]!)
  }
  return bestOf(drawn.map((i) => candidates.roomAt(i)), ask)
}

const bestOf = (drawn: ReadonlyArray<HostRoom>, ask: PlacementAsk): PlacementDecision => {
  const best = drawn.reduce((a, b) => (scoreOf(b, ask) > scoreOf(a, ask) ? b : a))
  return { _tag: "Placed", host: best.host.name, ask }
}

/** Indices below n drawn from one seed (mulberry32): as many as a decision needs, from one draw of Effect's Random. */
const drawsFrom = (seed: number) => {
  let state = seed >>> 0
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

/** What the placed load read at `seq` (the placements made here before the read began) says. */
interface LoadSnapshot {
  readonly seq: number
  readonly stored: ReadonlyMap<string, Load>
}

/** A placement made by this replica: `seq` orders it against the reads of the placed load. */
interface LocalPlacement extends Load {
  readonly seq: number
  readonly host: string
}

const tagsKey = (provisioner: string, tags: ProvisionerTags) =>
  JSON.stringify([provisioner, Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])

export class Placement extends Effect.Service<Placement>()("@workbay/core/Placement", {
  effect: Effect.gen(function*() {
    const hosts = yield* ProvisionerHosts
    const jobs = yield* ProvisionerJobRepo

    /** The candidates of each (type, tags) asked, per snapshot of the hosts (computed once for each). */
    const candidates = new WeakMap<HostSnapshot, Map<string, ReadonlyArray<ProvisionerHostRecord>>>()
    const candidatesOf = (snapshot: HostSnapshot, job: Omit<PlacementAsk, "memory_bytes" | "cpus">) => {
      let byAsk = candidates.get(snapshot)
      if (byAsk === undefined) {
        byAsk = new Map()
        candidates.set(snapshot, byAsk)
      }
      const key = tagsKey(job.provisioner, job.tags)
      let serving = byAsk.get(key)
      if (serving === undefined) {
        serving = snapshot.hosts.filter((h) =>
          hostStatus(h, snapshot.at) === "connected" && h.draining !== true &&
          h.provisioners.includes(job.provisioner) && tagsMatch(job.tags, h.tags)
        )
        // Tags naming their owner (scope=user) make a key per user: keep a bounded few.
        if (byAsk.size >= 64) byAsk.clear()
        byAsk.set(key, serving)
      }
      return serving
    }

    /** Placements made here, counted until a read of the placed load that began after them. */
    let seq = 0
    const local = new Map<string, {
      readonly placements: Array<LocalPlacement>
      /** The placed load of each host they changed, over `read`'s (kept up to date as starts are placed). */
      added: Map<string, Load>
      read: LoadSnapshot | undefined
    }>()
    const loads = readAtMostEvery(HOST_SNAPSHOT_TTL, (organizationId: string, at) =>
      Effect.suspend(() => {
        const before = seq
        return Effect.map(
          jobs.placedLoad(organizationId, new Date(at - Duration.toMillis(PLACEMENT_HOLD))),
          (stored): LoadSnapshot => ({ seq: before, stored })
        )
      }))
    const add = (added: Map<string, Load>, read: LoadSnapshot, p: LocalPlacement) => {
      const before = added.get(p.host) ?? read.stored.get(p.host)
      added.set(p.host, {
        memory_bytes: (before?.memory_bytes ?? 0) + p.memory_bytes,
        cpus: (before?.cpus ?? 0) + p.cpus
      })
    }
    /** The placed load of each host: as `read` read it, and this replica's placements since that read began. */
    const loadOf = (organizationId: string, read: LoadSnapshot): (host: string) => Load | undefined => {
      const mine = local.get(organizationId)
      if (mine === undefined) return (host) => read.stored.get(host)
      if (mine.read !== read) {
        // A newer read: what it began after is in it.
        const after = mine.placements.filter((p) => p.seq > read.seq)
        if (after.length === 0) {
          local.delete(organizationId)
          return (host) => read.stored.get(host)
        }
        mine.placements.splice(0, mine.placements.length, ...after)
        mine.added = new Map()
        mine.read = read
        for (const p of after) add(mine.added, read, p)
      }
      const added = mine.added
      return (host) => added.get(host) ?? read.stored.get(host)
    }
    const count = (organizationId: string, read: LoadSnapshot, host: string, ask: PlacementAsk) => {
      const placement = { seq: ++seq, host, memory_bytes: ask.memory_bytes, cpus: ask.cpus }
      let mine = local.get(organizationId)
      if (mine === undefined) {
        mine = { placements: [], added: new Map(), read }
        local.set(organizationId, mine)
      }
      mine.placements.push(placement)
      if (mine.read === read) add(mine.added, read, placement)
    }

    /**
     * Places a start: `demand` (what the template asks, read only when some host could take the
     * job) with the job's organization, type and tags.
     */
    const place = (
      job: Omit<PlacementAsk, "memory_bytes" | "cpus">,
      demand: Effect.Effect<{ readonly memory_bytes: number; readonly cpus: number } | undefined>
    ) =>
      Effect.gen(function*() {
        const serving = candidatesOf(yield* hosts.snapshot(job.organization_id), job)
        if (serving.length === 0) return { _tag: "Unplaced" } satisfies PlacementDecision
        const asked = yield* demand
        const ask: PlacementAsk = { ...job, memory_bytes: asked?.memory_bytes ?? 0, cpus: asked?.cpus ?? 0 }
        const draw = drawsFrom(yield* Random.nextIntBetween(0, 2 ** 31))
        // From the read of the placed load to the count of this placement nothing else runs here.
        const read = yield* loads.get(job.organization_id)
        const placed = loadOf(job.organization_id, read)
        const decision = decideAmong(
          {
            count: serving.length,
            hostAt: (i) => serving[i]!,
            freeMemoryAt: (i) => freeMemoryOf(serving[i]!, placed(serving[i]!.name)),
            roomAt: (i) => roomOf(serving[i]!, placed(serving[i]!.name))
          },
          ask,
          draw
        )
        // Counted here at once: the next start on this replica sees it before its job is read back.
        if (decision._tag === "Placed" && (ask.memory_bytes > 0 || ask.cpus > 0)) {
          count(job.organization_id, read, decision.host, ask)
        }
        return decision
      }).pipe(span("Placement.place"))

    return { place } as const
  })
}) {}
