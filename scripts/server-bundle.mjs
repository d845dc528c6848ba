// What the server's bundles leave out of the script, shared by `npm start`'s (scripts/build.mjs)
// and the tests' (packages/server/test/bundles.ts): these load from node_modules when used.
import { build } from "esbuild"
import { join } from "node:path"
import { dockerodeLean } from "./dockerode-lean.mjs"
import { lazyLibraries } from "./lazy-libraries.mjs"
import { routerLean } from "./router-lean.mjs"
import { schemaLean } from "./schema-lean.mjs"

export const serverExternal = [
  // Native and optional modules.
  "better-sqlite3",
  "pg-native",
  "bufferutil",
  "utf-8-validate",
  // Libraries core imports on their first use (packages/core/src/OnDemand.ts): kept out of the
  // script, they cost a start-up neither their evaluation nor the reading of about 0.9 MB.
  "jose",
  "nodemailer",
  "openid-client",
  "pkijs",
  "sshpk",
  "tar",
  // OpenTelemetry's SDK and exporter (about 0.3 MB), which only `--trace` loads (packages/server/src/Tracing.ts).
  // Its API stays in the script: prom-client loads it at every start (copies share their state).
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/resources",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/semantic-conventions"
]

/**
 * dockerode without BuildKit's gRPC session, ssh2 loaded only for an ssh:// daemon (dockerode-lean.mjs);
 * find-my-way registering routes without compiling generated code (router-lean.mjs); Effect's
 * schemas made without a class of methods each (schema-lean.mjs).
 */
export const serverPlugins = [dockerodeLean, routerLean, schemaLean]

/**
 * The server's script's: also the libraries that only some requests use, loaded on their first use
 * from node_modules (lazy-libraries.mjs). Not the agent's or the CLI's bundles, which keep them in.
 */
export const serverScriptPlugins = [...serverPlugins, lazyLibraries]

/**
 * The esbuild options of the production bundles (scripts/build.mjs) and of the test that runs the
 * built server (Bundle.test.ts): Node 20, minified, @workbay/* bundled from their sources (the
 * first entry of each exports map), not from a dist folder that may be missing or older.
 */
export const bundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  // Non-ASCII characters escaped (esbuild's default, stated here: the launcher reads the script as Latin-1).
  charset: "ascii",
  legalComments: "none",
  logLevel: "warning",
  conditions: ["@workbay/source"]
}

/**
 * `npm start`'s server in `outdir`: server.cjs (the bundle, CommonJS) and main.mjs (the launcher,
 * packages/server/src/launch.ts, which compiles server.cjs with its code cache when there is one).
 * scripts/build.mjs builds it into packages/server/dist; packages/server/test/Bundle.test.ts into a
 * folder of its own, to run the real thing.
 */
export const buildServerScripts = async (outdir, common) => {
  await build({
    ...common,
    entryPoints: ["packages/server/src/main.ts"],
    outfile: join(outdir, "server.cjs"),
    format: "cjs",
    // The launcher runs this script with vm.Script (for the code cache), which has no loader for an
    // `import()`: the on-demand libraries (core's OnDemand.ts: tar, jose, nodemailer, ...) are
    // required instead, still on their first use (Node 20.19+ requires ES modules too).
    supported: { "dynamic-import": false },
    // Written for debugging (node --enable-source-maps); never read otherwise.
    sourcemap: "linked",
    // Native and optional modules, and the libraries loaded on demand, stay external and load from
    // node_modules. dockerode is bundled without its BuildKit session (gRPC) and with ssh2 loaded only
    // for an ssh:// daemon: they were about 40% of the start-up.
    external: [...serverExternal],
    plugins: serverScriptPlugins
  })
  await build({
    ...common,
    entryPoints: ["packages/server/src/launch.ts"],
    outfile: join(outdir, "main.mjs"),
    format: "esm"
  })
  await buildSocketRelay(join(outdir, "socket-relay.cjs"), common)
}

/**
 * The socket relay's process (packages/http/src/SocketRelayMain.ts, docs/agents.md "The socket
 * relay"): `ws` and a few functions, started by the server beside its own script.
 */
export const buildSocketRelay = (outfile, common) =>
  build({
    ...common,
    entryPoints: ["packages/http/src/SocketRelayMain.ts"],
    outfile,
    format: "cjs",
    external: ["bufferutil", "utf-8-validate"]
  })
