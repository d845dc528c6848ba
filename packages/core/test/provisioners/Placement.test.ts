/**
 * The placement rule (docs/provisioner-daemons.md, "Placement") as a pure decision: room, score,
 * best of K, the refusal's words; among many hosts, K drawn at random among those with room
 * without asking every host's room, every one looked at when few or none have room.
 */
import { decidePlacement, MIN_DISK_FREE, type PlacementAsk, type ProvisionerHostRecord, roomOf } from "@workbay/core"
import { describe, expect, it } from "vitest"
import { type Candidates, decideAmong } from "../../src/provisioners/Placement.js"

const GIB = 1024 ** 3
const host = (name: string, over: Partial<ProvisionerHostRecord> = {}): ProvisionerHostRecord => ({
  organization_id: "org",
  name,
  tags: {},
  provisioners: ["docker"],
  version: "",
  cpus: 8,
  memory_bytes: 16 * GIB,
  memory_promised_bytes: 0,
  cpus_promised: 0,
  containers: 0,
  disk_free_bytes: 100 * GIB,
  first_seen_at: new Date(0),
  reported_at: new Date(0),
  ...over
})
const ask = (memoryGib: number, cpus = 1): PlacementAsk => ({
  organization_id: "org",
  provisioner: "docker",
  tags: {},
  memory_bytes: memoryGib * GIB,
  cpus
})
const first = () => 0

describe("decidePlacement", () => {
  it("leaves a job unplaced when no host could run it", () => {
    expect(decidePlacement([], ask(1), first)).toEqual({ _tag: "Unplaced" })
  })

  it("takes the host with the most room left, counting promises and placements not yet reported", () => {
    const rooms = [
      roomOf(host("a", { memory_promised_bytes: 10 * GIB }), undefined),
      roomOf(host("b"), { memory_bytes: 12 * GIB, cpus: 2 }),
      roomOf(host("c", { memory_promised_bytes: 4 * GIB, cpus_promised: 4 }), undefined)
    ]
    // Free memory: a 6, b 4, c 12 GiB; c scores best though half its CPUs are promised (0.55 vs 0.44).
    expect(decidePlacement(rooms, ask(2), first)).toMatchObject({ _tag: "Placed", host: "c" })
    // 7 GiB: only c has room.
    expect(decidePlacement(rooms, ask(7), first)).toMatchObject({ _tag: "Placed", host: "c" })
  })

  it("skips a host asked for more CPUs than it has, or with too little disk", () => {
    const rooms = [
      roomOf(host("small", { cpus: 2 }), undefined),
      roomOf(host("full", { disk_free_bytes: MIN_DISK_FREE - 1 }), undefined),
      roomOf(host("ok", { memory_bytes: 8 * GIB }), undefined)
    ]
    expect(decidePlacement(rooms, ask(1, 4), first)).toMatchObject({ _tag: "Placed", host: "ok" })
    // An engine whose disk the daemon cannot see is not refused for it.
    expect(decidePlacement([roomOf(host("remote", { disk_free_bytes: null }), undefined)], ask(1), first))
      .toMatchObject({ _tag: "Placed", host: "remote" })
  })

  it("draws K = 3 hosts among more with room and takes the best of those", () => {
    const rooms = ["h0", "h1", "h2", "h3", "h4"].map((n, i) =>
      roomOf(host(n, { memory_promised_bytes: (4 - i) * GIB }), undefined)
    )
    // Drawn: h0, h1, h2 (index 0 of what is left each time): h2 is the best of them, not h4.
    expect(decidePlacement(rooms, ask(1), first)).toMatchObject({ host: "h2" })
    const last = (n: number) => n - 1
    expect(decidePlacement(rooms, ask(1), last)).toMatchObject({ host: "h4" })
  })

  it("refuses with what the start asks and what the freest host has", () => {
    const rooms = [
      roomOf(host("a", { memory_promised_bytes: 14 * GIB }), undefined),
      roomOf(host("b", { memory_bytes: 8 * GIB, memory_promised_bytes: 4.5 * GIB }), undefined)
    ]
    expect(decidePlacement(rooms, ask(6, 2), first)).toEqual({
      _tag: "NoRoom",
      message: "No provisioner host has room for this workspace: it asks 6 GiB of memory and 2 CPUs; " +
        "of 2 connected hosts, the freest (b) has 3.5 GiB of memory free of 8 GiB, 8 CPUs."
    })
  })

  describe("among many hosts", () => {
    /** 1,000 hosts, those named by `roomy` with 4 GiB free and the others full; `looked` counts the hosts asked of. */
    const fleet = (roomy: (i: number) => boolean) => {
      const hosts = Array.from(
        { length: 1000 },
        (_, i) => roomOf(host(`h${i}`, { memory_promised_bytes: roomy(i) ? 12 * GIB : 16 * GIB }), undefined)
      )
      const looked = { n: 0 }
      const candidates: Candidates = {
        count: hosts.length,
        hostAt: (i) => hosts[i]!.host,
        freeMemoryAt: (i) => {
          looked.n++
          return hosts[i]!.freeMemory
        },
        roomAt: (i) => {
          looked.n++
          return hosts[i]!
        }
      }
      return { hosts, looked, candidates }
    }
    const random = (n: number) => Math.floor(Math.random() * n)

    it("draws K among those with room without asking every host's room", () => {
      const { candidates, looked } = fleet((i) => i % 2 === 0)
      const chosen = new Set<string>()
      for (let k = 0; k < 200; k++) {
        looked.n = 0
        const decision = decideAmong(candidates, ask(1), random)
        expect(decision._tag).toBe("Placed")
        if (decision._tag === "Placed") chosen.add(decision.host)
        // Half have room: a handful of draws find K = 3 (at most 256 before looking at all).
        expect(looked.n).toBeLessThanOrEqual(64)
      }
      // Only hosts with room, and many of them (the draw is at random among them, all scored alike).
      expect([...chosen].every((name) => Number(name.slice(1)) % 2 === 0)).toBe(true)
      expect(chosen.size).toBeGreaterThan(100)
    })

    it("looks at every host when the draws find too few with room: the one with room is taken", () => {
      const { candidates, looked } = fleet((i) => i === 737)
      expect(decideAmong(candidates, ask(1), random)).toMatchObject({ _tag: "Placed", host: "h737" })
      expect(looked.n).toBeGreaterThanOrEqual(1000)
    })

    it("refuses naming the freest of all when none has room", () => {
      const { hosts } = fleet(() => false)
      const rooms = hosts.map((r, i) =>
        i === 421 ? roomOf(host("h421", { memory_promised_bytes: 13 * GIB }), undefined) : r
      )
      expect(decidePlacement(rooms, ask(4), random)).toEqual({
        _tag: "NoRoom",
        message: "No provisioner host has room for this workspace: it asks 4 GiB of memory and 1 CPU; " +
          "of 1000 connected hosts, the freest (h421) has 3 GiB of memory free of 16 GiB, 8 CPUs."
      })
    })
  })
})
