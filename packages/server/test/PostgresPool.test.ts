/**
 * `--postgres-conn-max-open` (the described system's flag, `WORKBAY_POSTGRES_CONN_MAX_OPEN`): the most
 * connections a replica opens to Postgres for its queries. A real server process on a database of
 * its own, loaded with concurrent reads, holds no more than it was given (its listening
 * connection apart), and the deployment config reports the value; a value under 1 is refused.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { loadConfig } from "../src/Config.js"
import { firstOwnerSession } from "./owner.js"
import { freshDatabase, type ServerProcess, startServerProcess } from "./process.js"

const url = inject("workbayPgUrl")

describe("--postgres-conn-max-open", () => {
  it("takes a whole number of at least 1, by flag or variable", () => {
    expect(loadConfig(["--postgres-conn-max-open", "40"], {}).settings.pgConnMaxOpen?.value).toBe(40)
    expect(loadConfig([], { WORKBAY_POSTGRES_CONN_MAX_OPEN: "3" }).settings.pgConnMaxOpen?.value).toBe(3)
    for (const bad of ["0", "-2", "1.5", "many"]) {
      expect(() => loadConfig(["--postgres-conn-max-open", bad], {}), bad).toThrow(/--postgres-conn-max-open/)
    }
  })

  describe.skipIf(url === null)("on Postgres", () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>
    let server: ServerProcess
    beforeAll(async () => {
      db = await freshDatabase(url!)
      server = await startServerProcess(["--postgres-conn-max-open", "2"], {
        DATABASE_URL: db.url,
        WORKBAY_LOG_LEVEL: "warning"
      })
    })
    afterAll(async () => {
      await server?.stop()
      await db?.drop()
    })

    it("holds at most that many query connections under concurrent reads, and reports the value", async () => {
      const token = await firstOwnerSession(server.url)
      const headers = { "Service-Session-Token": token }
      const name = new URL(db.url).pathname.slice(1)
      const admin = new pg.Client({ connectionString: url! })
      await admin.connect()
      try {
        const open = async () =>
          Number(
            (await admin.query(
              `SELECT count(*) AS n FROM pg_stat_activity
               WHERE datname = $1 AND application_name <> 'workbay-pubsub' AND pid <> pg_backend_pid()`,
              [name]
            )).rows[0].n
          )
        let most = 0
        for (let round = 0; round < 5; round++) {
          const answers = await Promise.all(
            Array.from(
              { length: 30 },
              (_, i) =>
                fetch(`${server.url}/api/v2/${i % 2 === 0 ? "users" : "workspaces"}`, { headers }).then((r) => r.status)
            )
          )
          expect(new Set(answers)).toEqual(new Set([200]))
          most = Math.max(most, await open())
        }
        expect(most).toBeGreaterThan(0)
        expect(most).toBeLessThanOrEqual(2)
      } finally {
        await admin.end()
      }
      const config = await (await fetch(`${server.url}/api/v2/deployment/config`, { headers })).json()
      expect(config.config.pg_conn_max_open).toBe(2)
    })
  })
})
