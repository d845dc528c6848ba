/** Listening ports as the reference agent reads them: the /proc tables parsed, and this machine's own (Linux). */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { handlePortsMessage, listeningPorts, parseProcNetTcp } from "../src/Ports.js"

const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 12345 1 0000000000000000 100 0 0 10 0
   1: 0100007F:0BB8 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 12346 1 0000000000000000 20 4 30 10 -1
   2: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0000000000000000 100 0 0 10 0
`

describe("listening ports", () => {
  it("parses the LISTEN sockets of a /proc/net/tcp table", () => {
    expect(parseProcNetTcp(TABLE)).toEqual([{ port: 8080, inode: "12345" }, { port: 22, inode: "999" }])
    expect(parseProcNetTcp("")).toEqual([])
  })

  it.runIf(process.platform === "linux")("lists a port this process listens on, with its process name", async () => {
    const server = createServer()
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    const port = (server.address() as AddressInfo).port
    try {
      const found = listeningPorts().find((p) => p.port === port)
      expect(found).toMatchObject({ network: "tcp", port })
      expect(found!.process_name.length).toBeGreaterThan(0)
    } finally {
      server.close()
    }
  })

  it("answers a listening_ports_request, and only that", () => {
    const sent: Array<Record<string, unknown>> = []
    expect(handlePortsMessage({ type: "app_request", request_id: "r" }, (m) => sent.push(m))).toBe(false)
    expect(handlePortsMessage({ type: "listening_ports_request", request_id: "r1" }, (m) => sent.push(m), () => [
      { process_name: "node", network: "tcp", port: 3000 }
    ])).toBe(true)
    expect(handlePortsMessage({ type: "listening_ports_request", request_id: "r2" }, (m) => sent.push(m), () => {
      throw new Error("boom")
    })).toBe(true)
    expect(sent).toEqual([
      { type: "listening_ports", request_id: "r1", ports: [{ process_name: "node", network: "tcp", port: 3000 }] },
      { type: "listening_ports", request_id: "r2", ports: [], error: "Error: boom" }
    ])
  })
})
