/**
 * The relay map: which relay (DERP) servers clients and agents use to reach each other when no
 * direct path exists, in the described system's shape (tailcfg's `DERPMap`: `HomeParams`,
 * `Regions` by region id, each with `RegionID`, `RegionCode`, `RegionName` and its `Nodes`).
 *
 * It is a deployment setting (`Settings.relayMap`; when unset, one region for the embedded relay
 * at the access URL, as the described system's default). An embedder changes it at run time with
 * `RelayMap.set(map)`: the new map is published on the PubSub port, so every replica's
 * `GET /derp-map` streams send it to their clients (see docs/agents.md "The relay map").
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { DerpMap, EMBEDDED_RELAY_REGION_NAME } from "../DerpMap.js"
import { BadRequest, Validation } from "../Errors.js"
import { lazily } from "../Lazily.js"
import { MAX_PUBSUB_MESSAGE_BYTES, PubSub } from "../PubSub.js"
import { Settings } from "../Settings.js"
import { span } from "../Tracing.js"

/** The relay map (tailscale's `DERPMap` form), as the deployment's `RelayMap` holds it: its wire schema. */
export const DerpMapSchema = Schema.Struct({
  Regions: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  OmitDefaultRegions: Schema.optional(Schema.Boolean)
})

export { DerpMap, DerpNode, DerpRegion } from "../DerpMap.js"

/** The region id of the embedded relay, as in the described system. */
export const EMBEDDED_REGION_ID = 999

/** The default map: one region, the relay embedded at the access URL. */
export const embeddedRelayMap = (accessUrl: string): DerpMap => {
  const url = new URL(accessUrl)
  const https = url.protocol === "https:"
  const port = url.port === "" ? (https ? 443 : 80) : Number(url.port)
  return {
    HomeParams: {},
    Regions: {
      [String(EMBEDDED_REGION_ID)]: {
        EmbeddedRelay: true,
        RegionID: EMBEDDED_REGION_ID,
        RegionCode: "coder",
        RegionName: EMBEDDED_RELAY_REGION_NAME,
        Nodes: [{
          Name: `${EMBEDDED_REGION_ID}b`,
          RegionID: EMBEDDED_REGION_ID,
          HostName: url.hostname,
          STUNPort: -1,
          DERPPort: port,
          ForceHTTP: !https
        }]
      }
    }
  }
}

/** The PubSub channel a new map is published on (the map itself is the message). */
export const RELAY_MAP_CHANNEL = "relay_map"

const decodeMap = lazily(() => Schema.decodeUnknownEither(DerpMap, { onExcessProperty: "error" }))

/**
 * `map` checked: the relay map's shape, each region keyed by its own `RegionID`, each node in
 * its region, and small enough to travel between replicas (MAX_PUBSUB_MESSAGE_BYTES).
 * Answers the map's JSON (the message every stream sends), or the problems.
 */
export const checkRelayMap = (
  map: unknown
): Either.Either<{ readonly map: DerpMap; readonly json: string }, ReadonlyArray<string>> => {
  const decoded = decodeMap(map)
  if (Either.isLeft(decoded)) {
    return Either.left(
      ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => `${i.path.join(".") || "map"}: ${i.message}`)
    )
  }
  const problems: Array<string> = []
  for (const [key, region] of Object.entries(decoded.right.Regions)) {
    if (key !== String(region.RegionID)) {
      problems.push(`Regions.${key}: keyed by ${key} but its RegionID is ${region.RegionID}.`)
    }
    region.Nodes.forEach((node, i) => {
      if (node.RegionID !== region.RegionID) {
        problems.push(`Regions.${key}.Nodes.${i}: its RegionID is not its region's.`)
      }
    })
  }
  const json = JSON.stringify(decoded.right)
  if (Buffer.byteLength(json, "utf8") > MAX_PUBSUB_MESSAGE_BYTES) {
    problems.push(`The map's JSON is over ${MAX_PUBSUB_MESSAGE_BYTES} bytes, the most that travels between replicas.`)
  }
  return problems.length > 0 ? Either.left(problems) : Either.right({ map: decoded.right, json })
}

/** A follower of the relay map: called with the map's JSON at once and on each change, synchronously. */
export type RelayMapListener = (json: string) => void

export class RelayMap extends Effect.Service<RelayMap>()("@workbay/core/RelayMap", {
  scoped: Effect.gen(function*() {
    const settings = yield* Settings
    const pubsub = yield* PubSub
    const initial = checkRelayMap(settings.relayMap ?? embeddedRelayMap(settings.accessUrl))
    if (Either.isLeft(initial)) {
      return yield* Effect.dieMessage(`The relay map setting is invalid: ${initial.left.join(" ")}`)
    }
    let current = initial.right
    const listeners = new Set<RelayMapListener>()

    const apply = (json: string) => {
      if (json === current.json) return
      const checked = checkRelayMap(JSON.parse(json))
      if (Either.isLeft(checked)) return
      current = checked.right
      for (const listener of listeners) {
        try {
          listener(current.json)
        } catch {
          // A follower's own failure (its socket closing) is its own affair.
        }
      }
    }

    // Maps set on any replica (this one included) arrive here.
    const changes = yield* pubsub.subscribe(RELAY_MAP_CHANNEL)
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(changes.take, (message) =>
      Effect.sync(() => {
        // PUBSUB_RESYNC (""): nothing to re-read, the map travels whole.
        if (message !== "") {
          try {
            apply(message)
          } catch {
            // Not a map: ignored.
          }
        }
      }))))

    /** The current map. */
    const get = Effect.sync(() => current.map)

    /**
     * Replaces the map on every replica: this one at once, the others through the PubSub port.
     * Fails with 400 (the problems as validations) for a map of the wrong shape or over the size
     * that travels between replicas.
     */
    const set = (map: unknown) =>
      Effect.gen(function*() {
        const checked = checkRelayMap(map)
        if (Either.isLeft(checked)) {
          return yield* Effect.fail(
            new BadRequest({
              message: "Invalid relay map.",
              validations: checked.left.map((detail) => new Validation({ field: detail.split(":")[0]!, detail }))
            })
          )
        }
        apply(checked.right.json)
        yield* pubsub.publish(RELAY_MAP_CHANNEL, checked.right.json)
      }).pipe(span("RelayMap.set"))

    /** Calls `listener` with the map's JSON at once, then with each new map, until the scope closes. */
    const listen = (listener: RelayMapListener) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          listeners.add(listener)
          listener(current.json)
        }),
        () => Effect.sync(() => listeners.delete(listener))
      )

    return { get, set, listen } as const
  })
}) {}
