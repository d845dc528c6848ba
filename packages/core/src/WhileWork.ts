/**
 * Work done on a fiber that exists only while there is work: for what lives as long as a
 * connection (thousands of agents), where a fiber waiting the whole time costs memory.
 */
import { Effect, Fiber, Runtime, type Scope } from "effect"
import { addFinalizerInPlace } from "./ContextOverlay.js"

/**
 * Runs `work` on a fiber of its own when `wake()` is called, one run at a time: a wake during a run
 * makes one more run after it. For the life of the scope; its close interrupts a run and ends the
 * wakes. A run starts on `runtime` (a service's own, taken once, is shared by all its users: each
 * runtime taken keeps a copy of the fiber's refs, some 600 bytes; default: the caller's), not at
 * once: `wake` is called from inside whoever has the news. Interruptible even when made in an
 * uninterruptible region (an acquire).
 */
export const whileWork = <R>(
  work: Effect.Effect<void, never, R>,
  runtime?: Runtime.Runtime<R>
): Effect.Effect<{ readonly wake: () => void }, never, Scope.Scope | R> =>
  Effect.gen(function*() {
    const runsOn = runtime ?? (yield* Effect.runtime<R>())
    let running: Fiber.RuntimeFiber<void> | undefined
    let again = false
    let closed = false
    const start = (): void => {
      again = false
      const fiber = Runtime.runFork(runsOn, Effect.interruptible(work), { immediate: false })
      running = fiber
      fiber.addObserver(() => {
        if (running === fiber) running = undefined
        if (!closed && again) start()
      })
    }
    yield* addFinalizerInPlace(() =>
      Effect.suspend(() => {
        closed = true
        return running === undefined ? Effect.void : Fiber.interrupt(running)
      })
    )
    return {
      wake: () => {
        if (closed) return
        if (running === undefined) start()
        else again = true
      }
    }
  })
