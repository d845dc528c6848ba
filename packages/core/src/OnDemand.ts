/**
 * Libraries loaded on their first use rather than with the module graph. A dependency that only
 * a few requests need (mail, SSH keys, PKCS#7, JSON web tokens, tar) otherwise costs every
 * start-up its evaluation, and the bundled server's start-up was mostly that (bench/README.md,
 * "Start-up"). In the bundle, esbuild keeps such a module in the script but evaluates it only when
 * the `import()` runs.
 */
import { Effect } from "effect"
import { once } from "./Lazily.js"

/** What `load` imports, imported on the first call and shared by every later one. */
export const loadOnce = <A>(load: () => Promise<A>): () => Promise<A> => once(load)

/** The module `load` imports, as an effect: imported on first use and shared by every later use. */
export const onDemand = <A>(load: () => Promise<A>): Effect.Effect<A> => Effect.promise(loadOnce(load))

/** JSON web tokens: licenses and Google's instance identity. */
export const joseModule = onDemand(() => import("jose"))
/** PKCS#7 signed data: Azure's instance identity. */
export const pkijsModule = onDemand(() => import("pkijs"))
/** OpenSSH key formats: users' git SSH keys. */
export const sshpkModule = onDemand(() => import("sshpk").then((m) => m.default))
/** node-tar: reading template archives. */
export const loadTar = loadOnce(() => import("tar"))
/** OpenID Connect sign-in. */
export const openidClientModule = onDemand(() => import("openid-client"))
/** Mail through the smarthost. */
export const nodemailerModule = onDemand(() => import("nodemailer").then((m) => m.default))
