/**
 * The ProvisionerHosts service: the latest capacity of every host external daemons run
 * workspaces on (docs/provisioner-daemons.md, "Hosts and their capacity").
 *
 * A daemon reports every few seconds, so 10,000 hosts would be 2,000 reports a second. A report
 * is kept in memory on the replica holding the daemon's connection and written with the others in
 * one statement per {@link HOST_FLUSH_INTERVAL} (at most {@link HOST_FLUSH_BATCH} rows each): a
 * host whose figures changed within that interval, one whose figures did not every
 * {@link HOST_REFRESH_INTERVAL} (enough to stay connected, {@link HOST_STALE_INTERVAL}). Every
 * replica reads the table, its own unwritten reports over it.
 *
 * Placement reads an organization's hosts many times a second, and 10,000 rows are tens of
 * milliseconds to read: it reads a {@link HostSnapshot} instead, the same records as they were at
 * most {@link HOST_SNAPSHOT_TTL} ago (one read of the table a second per organization while starts
 * come, shared by the starts that arrive meanwhile). A host reported since, or changed by another
 * replica, is seen at the next read; a host drained here is seen at once (the snapshot is dropped).
 */
import { Clock, Deferred, Duration, Effect, Exit, FiberId, Layer, Option } from "effect"
import { authorize } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { NotFound } from "../Errors.js"
import { Organizations } from "../organizations/Organizations.js"
import { everyInterval } from "../Periodic.js"
import { span } from "../Tracing.js"
import { daemonStatus, ProvisionerDaemonRepo } from "./ProvisionerDaemon.js"
import {
  HOST_STALE_INTERVAL,
  type HostCapacity,
  hostStatus,
  type ProvisionerHost,
  type ProvisionerHostRecord,
  ProvisionerHostRepo,
  toProvisionerHost
} from "./ProvisionerHost.js"
import type { ProvisionerTags } from "./ProvisionerJob.js"
import type { PatchProvisionerHostRequest } from "./Requests.js"

/** How often a replica writes the reports it received. */
export const HOST_FLUSH_INTERVAL: Duration.Duration = Duration.seconds(5)
/** A host whose figures did not change is written this often (its `last_seen_at`). */
export const HOST_REFRESH_INTERVAL: Duration.Duration = Duration.seconds(15)
/** Hosts not reported for this long are deleted (checked at most every {@link HOST_PURGE_EVERY}). */
export const HOST_PURGE_AGE: Duration.Duration = Duration.days(7)
export const HOST_PURGE_EVERY: Duration.Duration = Duration.hours(1)
/** Rows per statement. */
export const HOST_FLUSH_BATCH = 500

/** Placement's view of an organization's hosts is at most this old ({@link HostSnapshot}). */
export const HOST_SNAPSHOT_TTL: Duration.Duration = Duration.seconds(1)

/**
 * An organization's hosts as read at `at`: the stored rows of hosts connected then or drained, this
 * replica's newer reports over them, in no set order.
 */
export interface HostSnapshot {
  readonly at: number
  readonly hosts: ReadonlyArray<ProvisionerHostRecord>
}

/**
 * A value per key, read by `read` at most every `ttl`: a caller within `ttl` of the last read gets
 * what it read; a later one reads anew, and callers arriving meanwhile wait for that read rather
 * than make their own. The read runs in the fiber of the caller that needs it, in its transaction
 * if it is in one (on SQLite's single connection a read outside it would wait for it to end, and
 * the caller for the read). When that read fails or is interrupted, each waiter reads for itself.
 * `invalidate` drops the value (and a read in flight is not kept): the next caller reads anew.
 */
export const readAtMostEvery = <K, A>(ttl: Duration.Duration, read: (key: K, at: number) => Effect.Effect<A>) => {
  const ttlMillis = Duration.toMillis(ttl)
  const held = new Map<K, { readonly at: number; readonly value: A }>()
  const reading = new Map<K, Deferred.Deferred<Option.Option<A>>>()
  const fresh = (entry: { readonly at: number } | undefined, at: number) =>
    entry !== undefined && at >= entry.at && at - entry.at < ttlMillis
  const keep = (key: K, at: number, value: A) => {
    // What is no longer fresh is read anew anyway: forget it (organizations no longer placing).
    for (const [k, e] of held) if (!fresh(e, at)) held.delete(k)
    held.set(key, { at, value })
  }
  const get = (key: K): Effect.Effect<A> =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      const entry = held.get(key)
      if (entry !== undefined && fresh(entry, at)) return Effect.succeed(entry.value)
      const pending = reading.get(key)
      if (pending !== undefined) {
        return Effect.flatMap(Deferred.await(pending), (value) =>
          Option.isSome(value) ? Effect.succeed(value.value) : get(key))
      }
      const done = Deferred.unsafeMake<Option.Option<A>>(FiberId.none)
      reading.set(key, done)
      return read(key, at).pipe(
        Effect.tap((value) =>
          Effect.sync(() => reading.get(key) === done && keep(key, at, value))
        ),
        Effect.onExit((exit) =>
          Effect.suspend(() => {
            if (reading.get(key) === done) reading.delete(key)
            return Deferred.succeed(done, Exit.isSuccess(exit) ? Option.some(exit.value) : Option.none())
          })
        )
      )
    })
  const invalidate = (key: K) =>
    Effect.sync(() => {
      held.delete(key)
      reading.delete(key)
    })
  return { get, invalidate } as const
}

/** Who reports: the daemon's organization, host, tags, types and version. */
export interface HostReporter {
  readonly organization_id: string
  readonly name: string
  readonly tags: ProvisionerTags
  readonly provisioners: ReadonlyArray<string>
  readonly version: string
}

const keyOf = (organizationId: string, name: string) => `${organizationId}/${name}`

const sameFigures = (a: HostCapacity, b: HostCapacity) =>
  a.cpus === b.cpus && a.memory_bytes === b.memory_bytes && a.memory_promised_bytes === b.memory_promised_bytes &&
  a.cpus_promised === b.cpus_promised && a.containers === b.containers && a.disk_free_bytes === b.disk_free_bytes

export class ProvisionerHosts extends Effect.Service<ProvisionerHosts>()("@workbay/core/ProvisionerHosts", {
  effect: Effect.gen(function*() {
    const repo = yield* ProvisionerHostRepo
    const daemons = yield* ProvisionerDaemonRepo
    const organizations = yield* Organizations
    /** The latest report of each host this replica heard, written or not. */
    const latest = new Map<string, ProvisionerHostRecord>()
    /** What was last written of each host, and when. */
    const written = new Map<string, { readonly record: ProvisionerHostRecord; readonly at: number }>()
    let lastPurge = -Infinity

    /** Keeps a daemon's report (written at the next flush); sync, so a report never waits on the database. */
    const report = (reporter: HostReporter, capacity: HostCapacity) =>
      Effect.map(Clock.currentTimeMillis, (at) => {
        const key = keyOf(reporter.organization_id, reporter.name)
        const before = latest.get(key)
        latest.set(key, {
          ...reporter,
          ...capacity,
          first_seen_at: before?.first_seen_at ?? new Date(at),
          reported_at: new Date(at)
        })
      })

    /** Writes the reports that changed, and those unchanged but not written for a while. */
    const flush = Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      const refresh = Duration.toMillis(HOST_REFRESH_INTERVAL)
      const due: Array<ProvisionerHostRecord> = []
      for (const [key, record] of latest) {
        const last = written.get(key)
        if (last?.record === record) continue
        if (last === undefined || !sameFigures(last.record, record) || at - last.at >= refresh) due.push(record)
      }
      for (let i = 0; i < due.length; i += HOST_FLUSH_BATCH) {
        const batch = due.slice(i, i + HOST_FLUSH_BATCH)
        yield* repo.upsertMany(batch)
        for (const r of batch) written.set(keyOf(r.organization_id, r.name), { record: r, at })
      }
      // Hosts no longer reporting here are forgotten once their last report is written and stale.
      for (const [key, record] of latest) {
        if (at - record.reported_at.getTime() > 2 * refresh && written.get(key)?.record === record) {
          latest.delete(key)
          written.delete(key)
        }
      }
      // Hosts gone for a week leave the listing (the described system purges daemons after 7 days).
      if (at - lastPurge >= Duration.toMillis(HOST_PURGE_EVERY)) {
        lastPurge = at
        yield* repo.purge(new Date(at - Duration.toMillis(HOST_PURGE_AGE)))
      }
      return due.length
    }).pipe(span("ProvisionerHosts.flush"))

    /** `stored`, this replica's newer reports of the organization's hosts over them. */
    const overStored = (organizationId: string, stored: ReadonlyArray<ProvisionerHostRecord>) => {
      const byName = new Map(stored.map((h) => [h.name, h]))
      for (const r of latest.values()) {
        if (r.organization_id !== organizationId) continue
        const s = byName.get(r.name)
        // The stored row knows when the host was first seen (by any replica, before any restart).
        if (s === undefined) byName.set(r.name, r)
        else if (s.reported_at.getTime() < r.reported_at.getTime()) {
          byName.set(r.name, { ...r, first_seen_at: s.first_seen_at, draining: s.draining })
        }
      }
      return [...byName.values()]
    }

    /** The organization's hosts as stored, this replica's newer reports over them, by name. */
    const records = (organizationId: string) =>
      Effect.map(
        repo.list(organizationId),
        (stored) => overStored(organizationId, stored).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      )

    const snapshots = readAtMostEvery(HOST_SNAPSHOT_TTL, (organizationId: string, at) =>
      Effect.map(
        repo.listForPlacement(organizationId, new Date(at - Duration.toMillis(HOST_STALE_INTERVAL))),
        (stored): HostSnapshot => ({ at, hosts: overStored(organizationId, stored) })
      ))
    /**
     * The organization's hosts for placement, as they were at most {@link HOST_SNAPSHOT_TTL} ago
     * (read anew after that, once for all the callers meanwhile): {@link records} without the hosts
     * offline then and not drained (a row of a host that reported here since is not drained).
     */
    const snapshot = (organizationId: string): Effect.Effect<HostSnapshot> => snapshots.get(organizationId)

    /** `GET /organizations/{organization}/provisionerhosts`: who may read daemons may read their hosts. */
    const list = (orgRef: string) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("read", { type: "provisioner_daemon", orgId: org.id })
        const at = yield* Clock.currentTimeMillis
        const hosts = yield* records(org.id)
        const live = (yield* daemons.serving(org.id)).filter((d) =>
          d.organization_id === org.id && d.host !== null && d.host !== undefined && daemonStatus(d, at) !== "offline"
        )
        return hosts.map((h): ProvisionerHost =>
          toProvisionerHost(h, {
            status: hostStatus(h, at),
            daemons: live.filter((d) => d.host === h.name).map((d) => d.name).sort()
          })
        )
      }).pipe(span("ProvisionerHosts.list"))

    /**
     * `PATCH /organizations/{organization}/provisionerhosts/{host}`: drains a host (placement skips
     * it; its workspaces stay) or takes it back. Who may manage daemons may; audited.
     */
    const setDraining = (orgRef: string, name: string, input: typeof PatchProvisionerHostRequest.Type) =>
      Effect.gen(function*() {
        const org = yield* organizations.resolve(orgRef)
        yield* authorize("update", { type: "provisioner_daemon", orgId: org.id })
        // A host heard here but not written yet is written first.
        yield* flush
        const before = yield* repo.find(org.id, name)
        if (Option.isNone(before)) return yield* NotFound.resource("Provisioner host")
        const after = yield* repo.setDraining(org.id, name, input.draining)
        if (Option.isNone(after)) return yield* NotFound.resource("Provisioner host")
        // Placement here sees it at once (other replicas within HOST_SNAPSHOT_TTL).
        yield* snapshots.invalidate(org.id)
        yield* auditResource(
          { type: "provisioner_host", id: org.id, target: name, organizationId: org.id },
          { draining: before.value.draining ?? false },
          { draining: after.value.draining ?? false }
        )
        const at = yield* Clock.currentTimeMillis
        const merged = (yield* records(org.id)).find((h) => h.name === name) ?? after.value
        const live = (yield* daemons.serving(org.id)).filter((d) =>
          d.organization_id === org.id && d.host === name && daemonStatus(d, at) !== "offline"
        )
        return toProvisionerHost(merged, { status: hostStatus(merged, at), daemons: live.map((d) => d.name).sort() })
      }).pipe(span("ProvisionerHosts.setDraining"))

    return { report, flush, records, snapshot, list, setDraining } as const
  })
}) {
  /** Writes the reports every {@link HOST_FLUSH_INTERVAL}, and once more when its scope closes (the server stops). */
  static readonly periodic: Layer.Layer<never, never, ProvisionerHosts> = Layer.scopedDiscard(
    Effect.flatMap(ProvisionerHosts, (hosts) =>
      Effect.zipRight(
        Effect.addFinalizer(() => Effect.ignore(hosts.flush)),
        Effect.forkScoped(everyInterval(hosts.flush, HOST_FLUSH_INTERVAL, "Writing provisioner hosts' capacity"))
      ))
  )
}
