/**
 * Provisioner hosts (docs/provisioner-daemons.md, "Hosts and their capacity"): the machines whose
 * engines external daemons run workspaces on. A daemon names its host when it connects (`host`,
 * protocol 1.2; several connections may name one) and reports the host's capacity every few
 * seconds; the service keeps the latest report of each host, which placement reads and
 * `GET /organizations/{organization}/provisionerhosts` shows.
 */
import { Context, Duration, type Effect, type Option, Schema } from "effect"
import type { WireProps } from "../Wire.js"
import type { ProvisionerTags } from "./ProvisionerJob.js"

/** How often a daemon serving a host reports its capacity (sent in `welcome` as `capacity_interval_ms`). */
export const DEFAULT_CAPACITY_INTERVAL: Duration.Duration = Duration.seconds(5)
/** A host not reported for this long is offline: placement skips it, the listing says so. */
export const HOST_STALE_INTERVAL: Duration.Duration = Duration.seconds(30)

/** A host's name: what `--name` gives `workbay provisioner start`, 1-64 of letters, digits, `.`, `_`, `-`. */
export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

const GIB = 1024 ** 3
/** Bounds of a report's figures: anything outside is a daemon's mistake (or a lie), refused with 4400. */
export const CAPACITY_BOUNDS = {
  cpus: 4096,
  /** 1 PiB. */
  memoryBytes: 1024 * 1024 * GIB,
  /** Limits promised to containers may exceed the host's memory (Docker overcommits); not by this much. */
  promisedBytes: 2 ** 53 - 1,
  cpusPromised: 1_000_000,
  containers: 1_000_000,
  /** 1 EiB. */
  diskBytes: 1024 * 1024 * 1024 * GIB
} as const

const bounded = (max: number, integer = true) => (integer ? Schema.Int : Schema.Number).pipe(Schema.between(0, max))

/**
 * One capacity report (daemon to server, message `capacity`): the host's CPUs and memory, what
 * its running workspace containers were promised (the sum of their limits), how many run, and
 * the engine's free disk (`null` when the daemon cannot see it, as for a remote `tcp://` engine).
 */
export const HostCapacity = Schema.Struct({
  cpus: Schema.Int.pipe(Schema.between(1, CAPACITY_BOUNDS.cpus)),
  memory_bytes: Schema.Int.pipe(Schema.between(1024 * 1024, CAPACITY_BOUNDS.memoryBytes)),
  memory_promised_bytes: bounded(CAPACITY_BOUNDS.promisedBytes),
  cpus_promised: bounded(CAPACITY_BOUNDS.cpusPromised, false),
  containers: bounded(CAPACITY_BOUNDS.containers),
  disk_free_bytes: Schema.NullOr(bounded(CAPACITY_BOUNDS.diskBytes))
})
export type HostCapacity = typeof HostCapacity.Type

/** A host as stored: its latest report, and who reported it. */
export interface ProvisionerHostRecord extends HostCapacity {
  readonly organization_id: string
  readonly name: string
  readonly tags: ProvisionerTags
  readonly provisioners: ReadonlyArray<string>
  /** The reporting daemon's build version. */
  readonly version: string
  readonly first_seen_at: Date
  readonly reported_at: Date
  /** Drained by an operator: placement skips it (absent in a report: a report never changes it). */
  readonly draining?: boolean | undefined
}

export class ProvisionerHostRepo extends Context.Tag("@workbay/core/ProvisionerHostRepo")<ProvisionerHostRepo, {
  /** Writes the latest reports (one statement for many hosts); a host's row keeps its `first_seen_at`. */
  readonly upsertMany: (hosts: ReadonlyArray<ProvisionerHostRecord>) => Effect.Effect<void>
  /** The organization's hosts, by name. */
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<ProvisionerHostRecord>>
  /**
   * The organization's hosts placement may take or must know of: those reported since
   * `reportedSince`, and those drained (a host whose row is older may have reported here since).
   */
  readonly listForPlacement: (
    organizationId: string,
    reportedSince: Date
  ) => Effect.Effect<ReadonlyArray<ProvisionerHostRecord>>
  readonly find: (organizationId: string, name: string) => Effect.Effect<Option.Option<ProvisionerHostRecord>>
  /** Sets whether the host is drained; the host as it is then, none when there is no such host. */
  readonly setDraining: (
    organizationId: string,
    name: string,
    draining: boolean
  ) => Effect.Effect<Option.Option<ProvisionerHostRecord>>
  /** Deletes hosts not reported since `olderThan`; answers how many. */
  readonly purge: (olderThan: Date) => Effect.Effect<number>
}>() {}

export const provisionerHostStatuses = ["connected", "offline"] as const
export type ProvisionerHostStatus = typeof provisionerHostStatuses[number]

export const hostStatus = (
  host: Pick<ProvisionerHostRecord, "reported_at">,
  now: number,
  stale: Duration.Duration = HOST_STALE_INTERVAL
): ProvisionerHostStatus => host.reported_at.getTime() < now - Duration.toMillis(stale) ? "offline" : "connected"

/** A host on the wire (a Workbay extension: the described system has no hosts). */
export class ProvisionerHost extends Schema.Class<ProvisionerHost>("ProvisionerHost")({
  name: Schema.String,
  organization_id: Schema.UUID,
  tags: Schema.Record({ key: Schema.String, value: Schema.String }),
  provisioners: Schema.Array(Schema.String),
  version: Schema.String,
  status: Schema.Literal(...provisionerHostStatuses),
  /** Drained: no new workspace is placed on it. */
  draining: Schema.Boolean,
  cpus: Schema.Int,
  cpus_promised: Schema.Number,
  memory_bytes: Schema.Int,
  memory_promised_bytes: Schema.Int,
  containers: Schema.Int,
  /** `null` when the daemon cannot see its engine's disk. */
  disk_free_bytes: Schema.NullOr(Schema.Int),
  /** Names of the daemons connected for this host, as the daemons listing shows them. */
  daemons: Schema.Array(Schema.String),
  first_seen_at: Schema.Date,
  last_seen_at: Schema.Date
}) {}

export const toProvisionerHost = (
  host: ProvisionerHostRecord,
  context: { readonly status: ProvisionerHostStatus; readonly daemons: ReadonlyArray<string> }
): ProvisionerHost => {
  const props: WireProps<typeof ProvisionerHost> = {
    name: host.name,
    organization_id: host.organization_id,
    tags: host.tags,
    provisioners: host.provisioners,
    version: host.version,
    status: context.status,
    draining: host.draining ?? false,
    cpus: host.cpus,
    cpus_promised: host.cpus_promised,
    memory_bytes: host.memory_bytes,
    memory_promised_bytes: host.memory_promised_bytes,
    containers: host.containers,
    disk_free_bytes: host.disk_free_bytes,
    daemons: context.daemons,
    first_seen_at: host.first_seen_at,
    last_seen_at: host.reported_at
  }
  return new ProvisionerHost(props, true)
}
