// An esbuild plugin for the server's bundles (scripts/build.mjs, packages/server/test/bundles.ts):
// dockerode bundled without what Workbay never calls and what costs the most to load.
//
// dockerode requires its BuildKit session (`lib/session.js`: @grpc/grpc-js and @grpc/proto-loader,
// which read protocol files at load) when it loads, and docker-modem requires ssh2 for `ssh://`
// daemons; together about 40% of the server's start-up and 20 MB of its idle memory
// (bench/README.md, "Start-up"). The Docker driver calls neither: it builds no images and its
// daemon addresses are unix:// or tcp:// (packages/docker/src/Client.ts). So:
// - `./session` and `./buildkit` of dockerode become modules that fail the call that reaches them,
//   saying why (an image build with BuildKit, or its progress);
// - docker-modem's `./ssh` becomes a module that loads the real one (and ssh2, from node_modules)
//   on the first `ssh://` connection, and not before;
// - docker-modem's request code describes each request for its debug log only when that log is on
//   (`DEBUG=modem`): it ran `util.inspect` over the request's options, agent and sockets included,
//   with no depth limit, for every call to the daemon.
import { readFile } from "node:fs/promises"
import { rewriteChecked } from "./checked-rewrite.mjs"

const MODEM_BEFORE = "  debug('Sending: %s', util.inspect(options, {"
const MODEM_AFTER = "  debug.enabled && debug('Sending: %s', util.inspect(options, {"

/** docker-modem's lib/modem.js with its request description made only for an enabled debug log; throws when its text differs. */
export const leanModemSource = (source) =>
  rewriteChecked(source, [[MODEM_BEFORE, MODEM_AFTER]], {
    plugin: "dockerode-lean.mjs",
    file: "docker-modem's lib/modem.js",
    library: "docker-modem"
  })

/** @type {import("esbuild").Plugin} */
export const dockerodeLean = {
  name: "dockerode-lean",
  setup(build) {
    build.onResolve(
      { filter: /^\.\/(session|buildkit)$/ },
      (args) =>
        /[\\/]dockerode[\\/]lib$/.test(args.resolveDir)
          ? { path: args.path.slice(2), namespace: "dockerode-lean" }
          : undefined
    )
    build.onResolve(
      { filter: /^\.\/ssh$/ },
      (args) =>
        /[\\/]docker-modem[\\/]lib$/.test(args.resolveDir) ? { path: "ssh", namespace: "dockerode-lean" } : undefined
    )
    build.onResolve({ filter: /^docker-modem\/lib\/ssh\.js$/ }, (args) => ({ path: args.path, external: true }))
    const refused = (what) => `new Error("${what} is not in Workbay's server bundle (scripts/dockerode-lean.mjs)")`
    const contents = {
      session: `module.exports = function (docker, auth, handler) { handler(${refused("A BuildKit session")}) }`,
      buildkit: `module.exports = { followProgress: function () { throw ${refused("BuildKit's progress")} } }`,
      ssh: `module.exports = function (opt) { return require("docker-modem/lib/ssh.js")(opt) }`
    }
    build.onLoad({ filter: /.*/, namespace: "dockerode-lean" }, (args) => ({
      contents: contents[args.path],
      loader: "js"
    }))
    build.onLoad({ filter: /[\\/]docker-modem[\\/]lib[\\/]modem\.js$/ }, async (args) => ({
      contents: leanModemSource(await readFile(args.path, "utf8")),
      loader: "js"
    }))
  }
}
