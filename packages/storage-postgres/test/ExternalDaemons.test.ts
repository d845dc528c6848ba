/**
 * External provisioner daemons across replicas on one Postgres: daemons connected to two
 * replicas, speaking the documented protocol over real WebSockets, drain imports queued on
 * either replica, each job run exactly once; a key deleted on one replica closes its daemons
 * on the other (the deletion travels by LISTEN/NOTIFY).
 */
import { workbayProvisioner } from "@workbay/core"
import { describe, expect, inject, it } from "vitest"
import WebSocket from "ws"
import { Client } from "../../http/test/support.js"
import { createVersion } from "../../http/test/templates/versions.js"
import { twoReplicas } from "./replicas.js"

const url = inject("workbayPgUrl")

/** A daemon that completes every import it gets with an empty result and acquires again. */
const daemon = (wsUrl: string, orgId: string, key: string, name: string) => {
  const socket = new WebSocket(
    `${wsUrl}/api/v2/organizations/${orgId}/provisionerdaemons/serve?provisioner=script&name=${name}`,
    {
      headers: { "Coder-Provisioner-Daemon-Key": key }
    }
  )
  const got: Array<string> = []
  const done: Array<{ job_id: string; status: string }> = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() }))
  )
  const welcomed = new Promise<void>((resolve) =>
    socket.on("message", (data) => {
      const m = JSON.parse(data.toString())
      if (m.type === "welcome") {
        resolve()
        socket.send(JSON.stringify({ type: "acquire" }))
      } else if (m.type === "job") {
        got.push(m.job_id)
        socket.send(JSON.stringify({ type: "log", job_id: m.job_id, logs: [{ output: `run by ${name}` }] }))
        socket.send(JSON.stringify({ type: "complete", job_id: m.job_id, result: {} }))
      } else if (m.type === "job_done") {
        done.push(m)
        socket.send(JSON.stringify({ type: "acquire" }))
      }
    })
  )
  return { socket, got, done, closed, welcomed }
}

/** Polls `check` for up to 45 s (generous: the suite runs beside a loaded machine's other files). */
const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 1800; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`waited too long for ${what}`)
}

describe.skipIf(url === null)("external provisioner daemons across replicas on Postgres", () => {
  const replicas = twoReplicas(url, workbayProvisioner)

  it("daemons on two replicas run each queued job once; a key deleted on one closes its daemons on the other", {
    timeout: 90_000
  }, async () => {
    const { a, b, owner, orgId } = replicas
    const ownerB = new Client(`${b.url}/api/v2`, owner.token)
    const made = await owner.post(`/organizations/${orgId}/provisionerkeys`, { name: "shared" })
    expect(made.status).toBe(201)
    const da = daemon(a.wsUrl, orgId, made.body.key, "on-a")
    const db = daemon(b.wsUrl, orgId, made.body.key, "on-b")
    await Promise.all([da.welcomed, db.welcomed])
    const versions: Array<string> = []
    for (let i = 0; i < 8; i++) {
      const r = await createVersion(i % 2 === 0 ? a : b, i % 2 === 0 ? owner : ownerB, orgId, "resources: []\n", {
        provisioner: "script"
      })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      versions.push(r.body.job.id)
    }
    await until(() => da.done.length + db.done.length === 8, "every job to finish")
    const ran = [...da.got, ...db.got]
    expect([...ran].sort()).toEqual([...versions].sort())
    expect(new Set(ran).size).toBe(8)
    expect([...da.done, ...db.done].every((d) => d.status === "succeeded")).toBe(true)

    expect((await ownerB.delete(`/organizations/${orgId}/provisionerkeys/shared`)).status).toBe(204)
    expect(await da.closed).toEqual({ code: 1001, reason: "provisioner key deleted" })
    expect(await db.closed).toEqual({ code: 1001, reason: "provisioner key deleted" })
  })
})
