/**
 * Creates a fresh database for this run on the machine's Postgres server and
 * provides its URL to the tests (`inject("workbayPgUrl")`); drops it at the end.
 * Server: WORKBAY_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres.
 * No server: the tests are skipped with a loud line, unless CI is set, where the run fails.
 */
import { randomBytes } from "node:crypto"
import pg from "pg"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of this run's fresh database, or null when Postgres is unreachable (tests skip). */
    workbayPgUrl: string | null
  }
}

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")

const isCi = () => {
  const ci = process.env.CI
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false"
}

const admin = async (url: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
  await client.connect()
  return client
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.WORKBAY_TEST_PG_URL || DEFAULT_URL
  let client: pg.Client
  try {
    client = await admin(serverUrl)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (isCi()) {
      throw new Error(
        `Postgres storage tests need a server under CI: cannot connect to ${redact(serverUrl)} (${reason}). ` +
          "Set WORKBAY_TEST_PG_URL to a reachable server."
      )
    }
    const line = `SKIPPED: Postgres storage tests — no server at ${
      redact(serverUrl)
    } (${reason}); set WORKBAY_TEST_PG_URL to run them`
    console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`)
    project.provide("workbayPgUrl", null)
    return () => console.warn(`\n${line}\n`)
  }

  const database = `workbay_test_${randomBytes(6).toString("hex")}`
  try {
    await client.query(`CREATE DATABASE "${database}"`)
    // The run's database is thrown away at the end: its commits need not wait for the WAL to reach
    // the disk. Without this the Postgres suites spend most of their time in fsync (the repository
    // suite: 30 s of waiting for 10 s of its own work); nothing a test checks depends on durability.
    await client.query(`ALTER DATABASE "${database}" SET synchronous_commit = off`)
  } finally {
    await client.end()
  }
  const testUrl = new URL(serverUrl)
  testUrl.pathname = `/${database}`
  project.provide("workbayPgUrl", testUrl.toString())

  return async () => {
    const teardown = await admin(serverUrl)
    try {
      // WITH (FORCE) ends connections a failed test may have left open (Postgres 13+).
      await teardown.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
    } finally {
      await teardown.end()
    }
  }
}
