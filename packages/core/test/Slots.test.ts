import { describe, expect, it } from "@effect/vitest"
import { Slots, visitEvery } from "../src/Slots.js"

describe("Slots", () => {
  it("spreads members evenly and visits each once per round of slots", () => {
    const slots = new Slots<number>(4)
    for (let i = 0; i < 10; i++) slots.add(i)
    const visits = Array.from({ length: 4 }, () => slots.advance())
    expect(visits.map((v) => v.length).sort()).toEqual([2, 2, 3, 3])
    expect(visits.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    // The next round visits the same slots in the same order.
    expect(slots.advance()).toEqual(visits[0])
  })

  it("fills the emptiest slot after deletions, and counts its members", () => {
    const slots = new Slots<string>(2)
    const a = slots.add("a")
    slots.add("b")
    expect(slots.delete("a", a)).toBe(true)
    expect(slots.delete("a", a)).toBe(false)
    expect(slots.size).toBe(1)
    expect(slots.add("c")).toBe(a)
    expect([...slots.all()].sort()).toEqual(["b", "c"])
    const seen: Array<string> = []
    slots.forEach((m) => seen.push(m))
    expect(seen.sort()).toEqual(["b", "c"])
  })

  it("a visit may delete members of the slot being visited", () => {
    const slots = new Slots<string>(1)
    const slot = slots.add("a")
    slots.add("b")
    const visited: Array<string> = []
    for (const m of slots.advance()) {
      visited.push(m)
      slots.delete(m === "a" ? "b" : "a", slot)
    }
    expect(visited).toEqual(["a", "b"])
    expect(slots.size).toBe(0)
  })

  it("visitEvery visits every member once a period, a slot per tick", async () => {
    const slots = new Slots<number>(4)
    for (let i = 0; i < 8; i++) slots.add(i)
    const ticks: Array<Array<number>> = []
    let current: Array<number> | undefined
    // A tick's visits run in one timer callback: a microtask after the first closes the tick.
    const stop = visitEvery(slots, 40, (m) => {
      if (current === undefined) {
        const tick: Array<number> = (current = [])
        queueMicrotask(() => {
          ticks.push(tick)
          current = undefined
        })
      }
      current.push(m)
    })
    while (ticks.length < 4) await new Promise((r) => setTimeout(r, 10))
    stop()
    const round = ticks.slice(0, 4)
    expect(round.map((t) => t.length)).toEqual([2, 2, 2, 2])
    expect(round.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })
})
