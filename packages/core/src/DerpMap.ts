/**
 * The relay map's shape (tailcfg's `DERPMap`), a deployment setting (`Settings.relayMap`); the
 * agents area serves and changes it (agents/RelayMap.ts, which re-exports these).
 */
import { Schema } from "effect"

const Int = Schema.Number.pipe(Schema.int())

/** One relay server of a region (tailcfg `DERPNode`). */
export const DerpNode = Schema.Struct({
  Name: Schema.String,
  RegionID: Int,
  HostName: Schema.String,
  CertName: Schema.optional(Schema.String),
  IPv4: Schema.optional(Schema.String),
  IPv6: Schema.optional(Schema.String),
  STUNPort: Schema.optional(Int),
  STUNOnly: Schema.optional(Schema.Boolean),
  DERPPort: Schema.optional(Int),
  InsecureForTests: Schema.optional(Schema.Boolean),
  ForceHTTP: Schema.optional(Schema.Boolean),
  STUNTestIP: Schema.optional(Schema.String),
  CanPort80: Schema.optional(Schema.Boolean)
})

/** A region of relay servers (tailcfg `DERPRegion`). */
export const DerpRegion = Schema.Struct({
  EmbeddedRelay: Schema.optional(Schema.Boolean),
  RegionID: Int,
  RegionCode: Schema.String,
  RegionName: Schema.String,
  Avoid: Schema.optional(Schema.Boolean),
  Nodes: Schema.Array(DerpNode)
})

/** The relay map (tailcfg `DERPMap`): regions keyed by their id (a decimal string on the wire). */
export const DerpMap = Schema.Struct({
  HomeParams: Schema.optional(Schema.NullOr(Schema.Struct({
    RegionScore: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Number })))
  }))),
  Regions: Schema.Record({ key: Schema.String, value: DerpRegion }),
  OmitDefaultRegions: Schema.optional(Schema.Boolean)
})
export type DerpMap = typeof DerpMap.Type

/** The name of the embedded relay's region, under which an agent's latency to its replica is shown (docs/agents.md). */
export const EMBEDDED_RELAY_REGION_NAME = "Coder Embedded Relay"
