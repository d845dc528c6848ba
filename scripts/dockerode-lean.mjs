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
//   on the first `ssh://` connection, and not before.

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
  }
}
