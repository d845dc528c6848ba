/** A daemon connection that names its host and reports the host's capacity (protocol 1.2), for the tests of hosts. */
import { connect, eventually } from "../websocket.js"

const GIB = 1024 ** 3

/** A `capacity` message: 16 CPUs, 64 GiB (8 promised), 4.5 CPUs promised, 3 containers, 500 GiB free; `over` replaces fields. */
export const capacityReport = (over: Record<string, unknown> = {}) => ({
  type: "capacity",
  cpus: 16,
  memory_bytes: 64 * GIB,
  memory_promised_bytes: 8 * GIB,
  cpus_promised: 4.5,
  containers: 3,
  disk_free_bytes: 500 * GIB,
  ...over
})

/**
 * A daemon of `host` connected with `key` to the organization's serve route (`query` adds its
 * types and name), welcomed, with `report` to send a capacity report.
 */
export const hostDaemon = async (
  wsUrl: string,
  organizationId: string,
  key: string,
  host: string,
  query = "provisioner=docker"
) => {
  const ws = await connect(
    `${wsUrl}/api/v2/organizations/${organizationId}/provisionerdaemons/serve?${query}&host=${host}`,
    { "Coder-Provisioner-Daemon-Key": key }
  )
  await eventually(() => ws.messages.length > 0)
  return { ws, report: (over: Record<string, unknown> = {}) => ws.socket.send(JSON.stringify(capacityReport(over))) }
}
