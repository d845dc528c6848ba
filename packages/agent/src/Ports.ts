/**
 * Listening ports (docs/agents.md, "Listening ports"): the service sends
 * `{type: "listening_ports_request", request_id}` on `/workspaceagents/me/rpc`; the agent answers
 * `{type: "listening_ports", request_id, ports: [{process_name, network, port}]}` with the TCP
 * ports its machine listens on. On Linux they are read from `/proc/net/tcp` and `/proc/net/tcp6`
 * (sockets in the LISTEN state), and each socket's process name from `/proc/<pid>/comm` when the
 * agent may read that process's descriptors (else `""`). Elsewhere the list is empty.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"

export interface ListeningPort {
  readonly process_name: string
  readonly network: "tcp"
  readonly port: number
}

/** The LISTEN sockets of one `/proc/net/tcp{,6}` table: their port and socket inode. */
export const parseProcNetTcp = (text: string): ReadonlyArray<{ readonly port: number; readonly inode: string }> => {
  const out: Array<{ port: number; inode: string }> = []
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/)
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    if (fields.length < 10 || fields[3] !== "0A") continue
    const local = fields[1]!
    const port = Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16)
    if (Number.isInteger(port) && port > 0 && port <= 65535) out.push({ port, inode: fields[9]! })
  }
  return out
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}

/** The names of the processes holding these socket inodes, as far as the agent may look. */
const processNames = (inodes: ReadonlySet<string>): Map<string, string> => {
  const names = new Map<string, string>()
  if (inodes.size === 0) return names
  let pids: Array<string> = []
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p))
  } catch {
    return names
  }
  for (const pid of pids) {
    let fds: Array<string>
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      let target: string
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      const m = /^socket:\[(\d+)\]$/.exec(target)
      if (m === null || !inodes.has(m[1]!) || names.has(m[1]!)) continue
      names.set(m[1]!, (read(`/proc/${pid}/comm`) ?? "").trim())
    }
    if (names.size === inodes.size) break
  }
  return names
}

/** The machine's listening TCP ports, each once, by port. */
export const listeningPorts = (): ReadonlyArray<ListeningPort> => {
  const sockets = [read("/proc/net/tcp"), read("/proc/net/tcp6")].flatMap((
    t
  ) => (t === undefined ? [] : parseProcNetTcp(t)))
  const names = processNames(new Set(sockets.map((s) => s.inode)))
  const byPort = new Map<number, ListeningPort>()
  for (const s of sockets) {
    const name = names.get(s.inode) ?? ""
    const known = byPort.get(s.port)
    if (known === undefined || (known.process_name === "" && name !== "")) {
      byPort.set(s.port, { process_name: name, network: "tcp", port: s.port })
    }
  }
  return [...byPort.values()].sort((a, b) => a.port - b.port)
}

/** Answers the service's `listening_ports_request`; false for any other message. */
export const handlePortsMessage = (
  message: Record<string, unknown>,
  send: (message: Record<string, unknown>) => void,
  list: () => ReadonlyArray<ListeningPort> = listeningPorts
): boolean => {
  if (message.type !== "listening_ports_request" || typeof message.request_id !== "string") return false
  let ports: ReadonlyArray<ListeningPort> = []
  let error: string | undefined
  try {
    ports = list()
  } catch (e) {
    error = String(e)
  }
  send({ type: "listening_ports", request_id: message.request_id, ports, ...(error === undefined ? {} : { error }) })
  return true
}
