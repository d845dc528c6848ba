/**
 * A layer built node after node (SequentialLayer.ts): the same services, built as often, on the
 * same contexts, and released in reverse, as Effect's own build gives; only without its machinery
 * per node (each node's build walked here, not by Effect).
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, FiberRef, Layer, ManagedRuntime, Scope, Supervisor } from "effect"
import { sequential } from "../src/SequentialLayer.js"

/** Services whose constructors count their runs and log their acquisitions and releases. */
const world = () => {
  const log: Array<string> = []
  const runs: Record<string, number> = {}
  const counted = (name: string) => {
    runs[name] = (runs[name] ?? 0) + 1
    log.push(`acquire ${name}`)
  }
  class Users extends Effect.Service<Users>()("test/Users", {
    scoped: Effect.gen(function*() {
      counted("Users")
      yield* Effect.addFinalizer(() => Effect.sync(() => log.push("release Users")))
      return { id: Math.random() }
    })
  }) {}
  class Orgs extends Effect.Service<Orgs>()("test/Orgs", {
    effect: Effect.gen(function*() {
      counted("Orgs")
      return { users: yield* Users }
    }),
    dependencies: [Users.Default]
  }) {}
  class Groups extends Effect.Service<Groups>()("test/Groups", {
    scoped: Effect.gen(function*() {
      counted("Groups")
      yield* Effect.addFinalizer(() => Effect.sync(() => log.push("release Groups")))
      return { users: yield* Users, orgs: yield* Orgs }
    }),
    dependencies: [Users.Default, Orgs.Default]
  }) {}
  class Hidden extends Context.Tag("test/Hidden")<Hidden, string>() {}
  class Sees extends Context.Tag("test/Sees")<Sees, string>() {}
  return { log, runs, Users, Orgs, Groups, Hidden, Sees }
}

describe("a layer built node after node", () => {
  it.effect("builds a service met twice once, and its dependents see that one", () =>
    Effect.gen(function*() {
      const { Groups, Orgs, runs, Users } = world()
      const layer = Layer.mergeAll(Groups.Default, Orgs.Default).pipe(Layer.provideMerge(Users.Default))
      const context = yield* Layer.build(sequential(layer))
      expect(runs).toEqual({ Users: 1, Orgs: 1, Groups: 1 })
      const users = Context.get(context, Users)
      expect(Context.get(context, Orgs).users).toBe(users)
      expect(Context.get(context, Groups).users).toBe(users)
      expect(Context.get(context, Groups).orgs).toBe(Context.get(context, Orgs))
      // Effect's own build gives the same counts.
      const { Groups: G2, Orgs: O2, runs: runs2, Users: U2 } = world()
      yield* Layer.build(Layer.mergeAll(G2.Default, O2.Default).pipe(Layer.provideMerge(U2.Default)))
      expect(runs2).toEqual(runs)
    }).pipe(Effect.scoped))

  it.effect("starts no fiber for the branches of a merge, where Effect starts one per branch", () =>
    Effect.gen(function*() {
      let started = 0
      class Starts extends Supervisor.AbstractSupervisor<void> {
        value = Effect.void
        override onStart() {
          started++
        }
      }
      const tags = Array.from({ length: 10 }, (_, i) => Context.GenericTag<string>(`test/S${i}`))
      const [first, ...rest] = tags.map((tag) => Layer.succeed(tag, "s"))
      const layer = Layer.mergeAll(first!, ...rest)
      yield* Layer.build(sequential(layer)).pipe(Effect.supervised(new Starts()))
      expect(started).toBe(0)
      yield* Layer.build(layer).pipe(Effect.supervised(new Starts()))
      expect(started).toBeGreaterThanOrEqual(10)
    }).pipe(Effect.scoped))

  it.effect("releases in the reverse order of acquisition when its scope closes", () =>
    Effect.gen(function*() {
      const { Groups, log } = world()
      const scope = yield* Scope.make()
      yield* Layer.buildWithScope(sequential(Groups.Default), scope)
      expect(log).toEqual(["acquire Users", "acquire Orgs", "acquire Groups"])
      yield* Scope.close(scope, Exit.void)
      expect(log.slice(3)).toEqual(["release Groups", "release Users"])
    }))

  it.effect("gives what `provide` hides to the layer it is provided to only, as Effect does", () =>
    Effect.gen(function*() {
      const { Hidden, Sees } = world()
      const sees = Layer.effect(Sees, Effect.map(Hidden, (h) => `saw ${h}`))
      const layer = sees.pipe(Layer.provide(Layer.succeed(Hidden, "h")))
      const context = yield* Layer.build(sequential(layer))
      expect(Context.get(context, Sees)).toBe("saw h")
      expect(Context.getOption(context, Hidden)._tag).toBe("None")
      // The outer context reaches the layers inside.
      const outer = yield* Layer.build(sequential(sees)).pipe(Effect.provideService(Hidden, "outer"))
      expect(Context.get(outer, Sees)).toBe("saw outer")
    }).pipe(Effect.scoped))

  it.effect("fails with a constructor's error and releases what was acquired before it", () =>
    Effect.gen(function*() {
      const { log, Users } = world()
      class Broken extends Context.Tag("test/Broken")<Broken, string>() {}
      const broken = Layer.effect(Broken, Effect.fail("no" as const))
      const scope = yield* Scope.make()
      const exit = yield* Effect.exit(Layer.buildWithScope(sequential(Layer.merge(Users.Default, broken)), scope))
      expect(exit).toEqual(Exit.fail("no"))
      yield* Scope.close(scope, exit)
      expect(log).toEqual(["acquire Users", "release Users"])
    }))

  it("keeps the fiber references a layer sets for the runtime built on it", async () => {
    const level = FiberRef.unsafeMake("default")
    const runtime = ManagedRuntime.make(sequential(Layer.locallyScoped(level, "set by the layer")))
    expect(await runtime.runPromise(FiberRef.get(level))).toBe("set by the layer")
    await runtime.dispose()
  })

  it.effect("builds the nodes it does not walk with Effect (a fresh layer is built again)", () =>
    Effect.gen(function*() {
      const { runs, Users } = world()
      const context = yield* Layer.build(sequential(Layer.merge(Users.Default, Layer.fresh(Users.Default))))
      expect(runs.Users).toBe(2)
      expect(Context.get(context, Users)).toBeDefined()
    }).pipe(Effect.scoped))
})
