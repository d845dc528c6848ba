/**
 * The agent's terminals (`pty` streams, Pty.ts) with a real pseudo-terminal (node-pty) running a
 * real shell, through a real local WebSocket server playing the service's stream endpoint: typing,
 * resizing, re-attaching with the recent output replayed, several sockets at once, the shell
 * ending, the idle timeout, containers refused, and the connection reports.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadNodePty } from "../src/Pty.js"
import { FRAME_BYTES } from "../src/StreamSocket.js"
import { type Harness, record, startHarness, waitFor } from "./streams.js"

const type = (ws: { send: (data: string) => void }, data: string) => ws.send(JSON.stringify({ data }))
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe("the agent's terminals", () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ ptyIdleTimeoutMs: 300 })
  })
  afterAll(() => h.close())

  it("runs a login shell in a real terminal, in the manifest's directory and environment", async () => {
    const ws = await h.open({ kind: "pty", reconnect: randomUUID() })
    const out = record(ws)
    type(ws, "echo \"hi-$((40 + 2))\"; echo \"var=$WORKBAY_TEST_VAR term=$TERM\"; pwd; tty\r")
    await out.output(/hi-42/)
    await out.output(/var=from-the-manifest term=xterm-256color/)
    await out.output(new RegExp(h.directory.replace(/[/.]/g, "\\$&")))
    await out.output(/\/dev\/pts\/\d+/)
    expect(out.frames.every((f) => f.length <= FRAME_BYTES)).toBe(true)
    type(ws, "exit\r")
    expect(await out.close()).toMatchObject({ code: 1000 })
  })

  it("takes its size from the query and from resize frames", async () => {
    const ws = await h.open({ kind: "pty", reconnect: randomUUID(), width: 91, height: 33 })
    const out = record(ws)
    type(ws, "stty size\r")
    await out.output(/\b33 91\b/)
    ws.send(JSON.stringify({ height: 40, width: 100 }))
    type(ws, "echo cols=$(tput cols) rows=$(tput lines)\r")
    await out.output(/cols=100 rows=40/)
    // Binary frames are requests too; data and a size in one.
    ws.send(Buffer.from(JSON.stringify({ data: "stty size\r", width: 120, height: 50 })), { binary: true })
    await out.output(/\b50 120\b/)
    ws.close()
    await out.close()
  })

  it("replays the recent output to a socket that re-attaches, then goes on live in the same shell", async () => {
    const reconnect = randomUUID()
    // Sockets of other tests' sessions still closing on the agent's side are not this test's.
    const before = h.streams.counts().reconnectingPty
    const first = await h.open({ kind: "pty", reconnect })
    const out1 = record(first)
    type(first, "echo \"pid=$$\"\r")
    const pid = (await out1.output(/pid=(\d+)/))[1]
    first.close()
    await out1.close()

    const second = await h.open({ kind: "pty", reconnect })
    const out2 = record(second)
    // The replay holds what the first socket saw.
    await out2.output(new RegExp(`pid=${pid}`))
    type(second, "echo \"again=$$\"\r")
    await out2.output(new RegExp(`again=${pid}`))

    // A third socket at once: both receive the live output.
    const third = await h.open({ kind: "pty", reconnect })
    const out3 = record(third)
    type(third, "echo \"both-$((6 * 7))\"\r")
    await out2.output(/both-42/)
    await out3.output(/both-42/)
    expect(h.streams.counts().reconnectingPty).toBe(before + 2)

    // The shell ending closes every attached socket with 1000.
    type(second, "exit 0\r")
    expect(await out2.close()).toMatchObject({ code: 1000 })
    expect(await out3.close()).toMatchObject({ code: 1000 })
    await waitFor(() => !alive(Number(pid)))
  })

  it("keeps the replay to the last 64 KiB", async () => {
    const reconnect = randomUUID()
    const first = await h.open({ kind: "pty", reconnect })
    const out1 = record(first)
    // 200 KiB of output, then a marker.
    type(first, "head -c 204800 /dev/zero | tr '\\0' x; echo; echo done-$((1+1))\r")
    await out1.output(/done-2/)
    first.close()
    await out1.close()
    const second = await h.open({ kind: "pty", reconnect })
    const out2 = record(second)
    await out2.output(/done-2/)
    // The replay is the frames up to the one that completes the marker (live output, such as a
    // prompt redrawn for the new size, may follow in the same turn).
    const upTo = out2.frames.findIndex((_f, i) => Buffer.concat(out2.frames.slice(0, i + 1)).includes("done-2"))
    const replay = Buffer.concat(out2.frames.slice(0, upTo + 1))
    const seen = `replay ${replay.length} B in ${upTo + 1} of ${out2.frames.length} frames`
    expect(replay.length, seen).toBeLessThanOrEqual(64 * 1024)
    expect(replay.length, seen).toBeGreaterThan(60 * 1024)
    type(second, "exit\r")
    await out2.close()
  })

  it("ends the shell of a session left without a socket for the idle timeout", async () => {
    const reconnect = randomUUID()
    const ws = await h.open({ kind: "pty", reconnect })
    const out = record(ws)
    type(ws, "echo \"pid=$$\"\r")
    const pid = Number((await out.output(/pid=(\d+)/))[1])
    ws.close()
    await waitFor(() => !alive(pid))
    // A new attach with the id starts a new shell.
    const again = await h.open({ kind: "pty", reconnect })
    const out2 = record(again)
    type(again, "echo \"pid=$$\"\r")
    const pid2 = Number((await out2.output(/pid=(\d+)/))[1])
    expect(pid2).not.toBe(pid)
    type(again, "exit\r")
    await out2.close()
  })

  it("runs a command instead of the shell, closing with 1000 when it ends", async () => {
    const ws = await h.open({ kind: "pty", reconnect: randomUUID(), command: "echo from-the-command; exit 3" })
    const out = record(ws)
    await out.output(/from-the-command/)
    expect(await out.close()).toMatchObject({ code: 1000 })
  })

  it("refuses a container with 1011", async () => {
    const ws = await h.open({ kind: "pty", reconnect: randomUUID(), container: "app" })
    expect(await record(ws).close()).toEqual({ code: 1011, reason: "This agent cannot enter containers." })
  })

  it("reports each attach as a reconnecting_pty connection", async () => {
    const ws = await h.open({ kind: "pty", reconnect: randomUUID(), command: "exit 5" })
    await record(ws).close()
    const id = ws.streamId
    await waitFor(() => h.reports.some((r) => r.action === "disconnect" && r.id === id))
    const mine = h.reports.filter((r) => r.id === id)
    expect(mine).toEqual([
      { id, action: "connect", type: "reconnecting_pty", ip: "203.0.113.7", timestamp: expect.any(String) },
      {
        id,
        action: "disconnect",
        type: "reconnecting_pty",
        ip: "203.0.113.7",
        timestamp: expect.any(String),
        status_code: 5,
        reason: "The shell exited with code 5."
      }
    ])

    // A client that leaves: code 0, and why.
    const other = await h.open({ kind: "pty", reconnect: randomUUID() })
    const out = record(other)
    type(other, "echo \"pid=$$\"\r")
    await out.output(/pid=\d+/)
    other.close()
    await waitFor(() => h.reports.some((r) => r.action === "disconnect" && r.id === other.streamId))
    expect(h.reports.find((r) => r.action === "disconnect" && r.id === other.streamId)).toMatchObject({
      status_code: 0,
      reason: "The client disconnected."
    })
  })
})

describe("a terminal's last output", () => {
  // node-pty destroys its reader 200 ms after the child exits, whatever it has not read
  // (microsoft/node-pty#726). A reader that was paused (a slow socket) or a loop that stalled
  // past those 200 ms lost the last lines; `keepFinalOutput` hands them on first.
  const run = async (command: string, wrap: boolean) => {
    const { spawn } = wrap ? await loadNodePty() : await import("@lydell/node-pty")
    const pty = spawn("sh", ["-c", command], { cols: 80, rows: 24, encoding: null })
    const chunks: Array<Buffer> = []
    pty.onData((d: string | Buffer) => void chunks.push(Buffer.from(d)))
    // Paused at once, as when the socket it feeds is congested: the reader holds the first 2 KiB
    // it read, the terminal the rest (8 KiB fit; more and the child would wait to write).
    pty.pause()
    const exit = await new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)))
    return { exit, output: Buffer.concat(chunks).toString() }
  }
  const command = "printf 'first\\n'; head -c 8000 /dev/zero | tr '\\0' x; printf '\\nlast\\n'; exit 3"

  it("reaches onData before onExit, all of it, though the reader was paused", async () => {
    const { exit, output } = await run(command, true)
    expect(exit).toBe(3)
    expect(output).toMatch(/^first\r\nx{8000}\r\nlast\r\n$/)
  })

  it("(node-pty by itself drops it: what the test above would see without the fix)", async () => {
    const { exit, output } = await run(command, false)
    expect(exit).toBe(3)
    expect(output).not.toMatch(/last/)
  })
})
