/** Agent test support: the agent command (its source, bundled), and polling until a read satisfies a check. */
import { inject } from "vitest"

/** Runs the agent's src/bin.ts, bundled once per change (packages/server/test/bundles.ts), as the bundle's bin would. */
export const AGENT_COMMAND = `${process.execPath} ${inject("workbayAgentBundle")}`

/** Reads until `done` holds (every 100 ms), or fails after `ms` naming `what` and the last value read. */
export const eventually = async <A>(
  read: () => Promise<A>,
  done: (a: A) => boolean,
  what: string,
  ms = 20_000
): Promise<A> => {
  const until = Date.now() + ms
  let last: A = await read()
  while (!done(last)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)}`)
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}
