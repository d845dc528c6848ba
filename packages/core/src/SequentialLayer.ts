/**
 * A layer built one node after the other, for the composition of the whole service (http's
 * `makeWorkbay`).
 *
 * Effect builds each node of a layer (every service's layer, every `merge`, `mergeAll`, `provide`
 * and `provideMerge`) as a memoized resource: a synchronized map, a deferred, a scope and a diff
 * of the fiber's references per node, and a fiber per branch of a merge. That is made for layers
 * that share a memo map across builds and build their branches in parallel; the service's start
 * is one build of some 480 nodes whose constructors run in microseconds, and that machinery was
 * about 61,000 Effect operations and 234 fibers: built this way instead, a start runs 16,900 and 35,
 * and the standalone server's restart took about a quarter less (bench/README.md, "Sixth round").
 *
 * `sequential(layer)` walks the same tree itself: each node is built once (a node met twice, such
 * as a service in another's `dependencies`, gives the same services, as with Effect's own
 * memoization within a build), a service's constructor runs on the context its position gives
 * it (what `provide` hands it, exactly as Effect does), and branches of a merge are built one
 * after the other rather than at once. Everything is acquired in the scope of the returned
 * layer, so finalizers run in the reverse order of acquisition when it closes.
 *
 * It reads the nodes' representation (`_op_layer` and its fields, Effect 3's internal/layer.ts):
 * a node of a kind it does not know (or a representation it does not recognize) is built by
 * Effect itself, with the surrounding memo map, so it is only ever slower, never different.
 */
import { Context, Effect, Layer, Scope } from "effect"

/** The fields of the layer nodes walked here; any other node goes to Effect's own builder. */
type Node =
  | { readonly _op_layer: "Suspend"; readonly evaluate: () => Layer.Layer<never, unknown, unknown> }
  | {
    readonly _op_layer: "FromEffect" | "Scoped"
    readonly effect: Effect.Effect<Context.Context<never>, unknown, unknown>
  }
  | {
    readonly _op_layer: "Provide"
    readonly first: Layer.Layer<never, unknown, unknown>
    readonly second: Layer.Layer<never, unknown, unknown>
  }
  | {
    readonly _op_layer: "ProvideMerge" | "ZipWith"
    readonly first: Layer.Layer<never, unknown, unknown>
    readonly second: Layer.Layer<never, unknown, unknown>
    readonly zipK: (a: Context.Context<never>, b: Context.Context<never>) => Context.Context<never>
  }
  | { readonly _op_layer: "MergeAll"; readonly layers: ReadonlyArray<Layer.Layer<never, unknown, unknown>> }

const isNode = (layer: unknown): layer is Node => {
  const op = (layer as { _op_layer?: unknown })._op_layer
  const node = layer as Record<string, unknown>
  switch (op) {
    case "Suspend":
      return typeof node.evaluate === "function"
    case "FromEffect":
    case "Scoped":
      return Effect.isEffect(node.effect)
    case "Provide":
      return Layer.isLayer(node.first) && Layer.isLayer(node.second)
    case "ProvideMerge":
    case "ZipWith":
      return Layer.isLayer(node.first) && Layer.isLayer(node.second) && typeof node.zipK === "function"
    case "MergeAll":
      return Array.isArray(node.layers)
    default:
      return false
  }
}

/** `layer`, built node after node in one scope (see above); what it gives, needs and may fail with are unchanged. */
export const sequential = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.scopedContext(Effect.gen(function*() {
    const scope = yield* Effect.scope
    const memoMap = yield* Layer.CurrentMemoMap
    const built = new Map<unknown, Context.Context<never>>()
    type Build = Effect.Effect<Context.Context<never>, unknown>
    const build = (layer: Layer.Layer<never, unknown, unknown>, context: Context.Context<never>): Build =>
      Effect.suspend((): Build => {
        const known = built.get(layer)
        if (known !== undefined) return Effect.succeed(known)
        // Every context is given in full here, so nothing is left to require.
        const remember = (effect: Effect.Effect<Context.Context<never>, unknown, unknown>): Build =>
          Effect.tap(effect as Build, (result) => {
            built.set(layer, result)
          })
        if (!isNode(layer)) {
          return remember(Effect.provide(Layer.buildWithMemoMap(layer, memoMap, scope), context) as Build)
        }
        switch (layer._op_layer) {
          case "Suspend":
            return remember(build(layer.evaluate(), context))
          case "FromEffect":
            return remember(Effect.provide(layer.effect, context))
          case "Scoped":
            return remember(Effect.provide(Scope.extend(layer.effect, scope), context))
          case "Provide":
            // What `first` gives is all `second` sees, as in Effect (`provide` puts the outer context in `first`).
            return remember(Effect.flatMap(build(layer.first, context), (given) => build(layer.second, given)))
          case "ProvideMerge":
          case "ZipWith": {
            const { first, second, zipK } = layer
            return remember(Effect.flatMap(
              build(first, context),
              (a) => Effect.map(build(second, context), (b) => zipK(a, b))
            ))
          }
          case "MergeAll":
            return remember(Effect.map(
              Effect.forEach(layer.layers, (each) => build(each, context)),
              (contexts) => contexts.reduce((all, each) => Context.merge(all, each), Context.empty())
            ))
        }
      })
    return yield* build(layer as unknown as Layer.Layer<never, unknown, unknown>, yield* Effect.context<never>())
  })) as unknown as Layer.Layer<A, E, R>
