/**
 * The scaletest's event loop probe (scaletest/Metrics.ts `probeLoopDelay`): a stall of the process's
 * loop shows as a sample at least as long as the stall (a lower bound only: a busy machine makes
 * samples longer, never shorter), samples go where `into` points at each tick, and stopping it stops them.
 */
import { describe, expect, it } from "vitest"
import { LOOP_DELAY_KIND, Metrics, probeLoopDelay } from "../src/commands/scaletest/Metrics.js"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const count = (m: Metrics) => m.summaries()[LOOP_DELAY_KIND]?.count ?? 0

describe("probeLoopDelay", () => {
  it("records a stall of the loop, into the metrics it is pointed at, until stopped", async () => {
    const first = new Metrics()
    const second = new Metrics()
    let into = first
    const stop = probeLoopDelay(() => into, 20)
    await sleep(10)
    // Held 300 ms: the tick due meanwhile runs at least about 290 ms late.
    const until = performance.now() + 300
    while (performance.now() < until);
    await sleep(60)
    expect(first.summaries()[LOOP_DELAY_KIND]!.max_ms).toBeGreaterThanOrEqual(250)
    into = second
    await sleep(100)
    expect(count(second)).toBeGreaterThan(0)
    stop()
    const [a, b] = [count(first), count(second)]
    await sleep(100)
    expect([count(first), count(second)]).toEqual([a, b])
  })
})
