/**
 * `prebuilds pause` and `prebuilds resume`, as the described system's cli/prebuilds.go: the
 * prebuilds settings' `reconciliation_paused` (`PUT /prebuilds/settings`; 304 when it already
 * was), so the reconciler of every replica stops or goes on keeping presets' prebuilt workspaces
 * (docs/prebuilds.md).
 */
import { settle } from "@workbay/client"
import type { Context } from "../Context.js"

const setPaused = async (ctx: Context, paused: boolean) => {
  await settle(ctx.client().rest.PUT("/api/v2/prebuilds/settings", { body: { reconciliation_paused: paused } }), [304])
  process.stderr.write(`Prebuilds are now ${paused ? "paused" : "resumed"}.\n`)
}

export const pause = (ctx: Context) => setPaused(ctx, true)
export const resume = (ctx: Context) => setPaused(ctx, false)
