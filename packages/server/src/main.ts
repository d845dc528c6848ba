/** The `npm start` entry point. */
import { Duration, Effect } from "effect"
import { setFlagsFromString } from "node:v8"
import { helpText, loadConfig } from "./Config.js"
import { startServer } from "./Server.js"

/**
 * V8 allocates straight into the old generation from code whose objects often survived a young
 * collection ("allocation-site pretenuring"). A request that waits on Postgres is alive during
 * young collections, so V8 soon pretenures what every request allocates (its fiber, its rows,
 * its response), and the old generation fills with garbage only full collections reclaim: young
 * collections took 7 ms instead of 1.5, and GET /users/me 20% more CPU. On Postgres the server,
 * which owns its process, turns that off (the library never sets flags; on SQLite, where most
 * requests answer without waiting, it made no difference); a flag given to node says otherwise.
 */
const noPretenuring = () => {
  if (![...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("allocation-site-pretenuring"))) {
    setFlagsFromString("--no-allocation-site-pretenuring")
  }
}

/** How long past `--shutdown-timeout` a shutdown may take before the process exits anyway (code 1). */
const SHUTDOWN_GRACE_MS = 10_000

const main = async () => {
  // `dbcrypt rotate|decrypt|delete`: maintenance of the values encrypted at rest, then exit.
  if (process.argv[2] === "dbcrypt") {
    const { runDbcrypt } = await import("./Dbcrypt.js")
    process.exit(await runDbcrypt(process.argv.slice(3), process.env))
  }
  let config
  try {
    config = loadConfig(process.argv.slice(2), process.env)
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n\n${helpText()}`)
    process.exit(2)
  }
  if (config.help) {
    console.log(helpText())
    return
  }
  if (config.databaseUrl) noPretenuring()
  const started = Date.now()
  const running = await startServer(config)
  console.log(`Workbay ${running.url}/api/v2 ready in ${Date.now() - started} ms, storing data in ${running.storage}.`)
  if (running.metricsUrl !== undefined) console.log(`Prometheus metrics at ${running.metricsUrl}.`)
  console.log(running.dashboard)
  console.log(running.docker)
  if (running.tracing !== undefined) console.log(running.tracing)
  // Asked in-process: a fetch() here would load undici (about 30 ms and several MB) for one request.
  const first = await new Promise<number>((resolve) =>
    running.workbay.dispatcher.handle(
      { method: "GET", url: "/api/v2/users/first", headers: {}, body: undefined, remoteAddress: "127.0.0.1" },
      (r) => resolve(r.status)
    )
  )
  if (first === 404) {
    const how = running.dashboardUrl === undefined
      ? "No users yet. Create the first (owner) user:"
      : `No users yet. Open ${running.dashboardUrl} to create the first (owner) user, or:`
    console.log(
      `${how}\n  curl -X POST ${running.url}/api/v2/users/first -H 'Content-Type: application/json' \\\n` +
        `    -d '{"email":"admin@example.com","username":"admin","password":"<a strong password>"}'`
    )
  }
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while stopping ends the process at once.
    if (stopping) process.exit(1)
    stopping = true
    const bound = Duration.format(config.shutdownTimeout)
    // The whole shutdown is bounded too: a server too busy to finish its steps (thousands of
    // agents' connections, a database that stopped answering) exits anyway, SHUTDOWN_GRACE_MS
    // after the requests' bound.
    setTimeout(() => {
      console.error(`Workbay did not finish shutting down within ${bound} and ${SHUTDOWN_GRACE_MS / 1000} s: exiting.`)
      process.exit(1)
    }, Duration.toMillis(config.shutdownTimeout) + SHUTDOWN_GRACE_MS).unref()
    running.workbay.run(Effect.logInfo(`${signal} received: shutting down (in-flight requests have ${bound}).`))
      .then(() => running.close())
      .then(() => process.exit(0), (e) => {
        console.error("Workbay could not shut down cleanly:", e)
        process.exit(1)
      })
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

/** Settles once the server listens (or could not start): the launcher (launch.ts) waits for it. */
export const started: Promise<void> = main().catch((e) => {
  console.error("Workbay failed to start:", e)
  process.exit(1)
})
