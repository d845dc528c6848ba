// An esbuild plugin for the server's script (scripts/server-bundle.mjs): libraries that only some
// requests use are loaded on their first use instead of at every start.
//
// The libraries below are called synchronously (a template's YAML and its expressions, parameter
// patterns, notification templates, zip archives), so core imports them as usual and they cannot
// go through core's `import()`-based OnDemand.ts. In the server's script each import of one of them
// is given a stand-in module instead: each of the library's exports becomes a forwarder (a Proxy of
// a function: called, constructed, `instanceof` and its properties all reach the real export) that
// `require`s the library from node_modules, as the script's other externals are, the first time any
// of them is touched. A start then neither reads nor evaluates them (bench/README.md, "Start-up").
// The export names are read from the library itself at build time; a value that is not a function
// or an object (a string, a number) is copied into the stand-in. Other bundles (the agent's, the
// CLI's) are not given this plugin: they keep the libraries inside.
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const requireHere = createRequire(join(root, "package.json"))

/**
 * The libraries. The first six are imported by core; the next two by packages in node_modules that
 * the server only ever calls into (Effect's Schema calls fast-check's `array` in an arbitrary's
 * annotation, which the server never makes; @effect/platform's MsgPack module, which nothing of
 * the server uses, imports msgpackr); the last two by the Postgres storage and @effect/sql-pg,
 * inside functions only, so only a Postgres database loads them.
 */
export const LAZY_LIBRARIES = [
  "yaml",
  "re2js",
  "@marcbachmann/cel-js",
  "handlebars",
  "marked",
  "yauzl",
  "fast-check",
  "msgpackr",
  "pg",
  "pg-connection-string"
]

const NAMESPACE = "lazy-library"

/** The stand-in module of `name`: its exports as forwarders to the library, required on first use. */
const standIn = (name, real) => {
  const lines = [
    `let loaded`,
    `const load = () => (loaded ??= require(${JSON.stringify(name)}))`,
    // What an ES module's default import of the library is: its `default` when it says it is an ES
    // module compiled to CommonJS, else the whole module.
    `const defaultOf = (m) => (m && m.__esModule && "default" in m ? m.default : m)`,
    // One handler for all the forwarders; each target (a function, so that the forwarder can be
    // called and constructed) carries its export's name (none for the default export).
    `const EXPORT = Symbol("lazy-library export")`,
    `const real = (target) => { const m = load(); return target[EXPORT] === undefined ? defaultOf(m) : m[target[EXPORT]] }`,
    `const handler = {`,
    `  apply: (target, self, args) => Reflect.apply(real(target), self, args),`,
    `  construct: (target, args, newTarget) => Reflect.construct(real(target), args, newTarget),`,
    `  get: (target, key) => { const value = real(target), v = value[key]; return typeof v === "function" && key !== "prototype" && !/^[A-Z]/.test(String(key)) ? v.bind(value) : v },`,
    `  set: (target, key, v) => Reflect.set(real(target), key, v),`,
    // No `ownKeys` or `getOwnPropertyDescriptor`: the target's own `prototype` cannot be
    // configured, so a Proxy may not report the library's keys in its place (nothing enumerates them).
    `  has: (target, key) => Reflect.has(real(target), key)`,
    `}`,
    `const forward = (name) => { const target = function () {}; target[EXPORT] = name; return new Proxy(target, handler) }`
  ]
  for (const key of Object.keys(real)) {
    if (key === "default" || key === "__esModule" || !/^[A-Za-z_$][\w$]*$/.test(key)) continue
    const value = real[key]
    if (typeof value === "function" || (typeof value === "object" && value !== null)) {
      lines.push(`export const ${key} = forward(${JSON.stringify(key)})`)
    } else if (["string", "number", "boolean"].includes(typeof value) || value === null) {
      lines.push(`export const ${key} = ${JSON.stringify(value)}`)
    }
  }
  lines.push(`export default forward(undefined)`)
  return lines.join("\n")
}

/** @type {import("esbuild").Plugin} */
export const lazyLibraries = {
  name: "lazy-libraries",
  setup(build) {
    const filter = new RegExp(`^(${LAZY_LIBRARIES.map((n) => n.replace(/[/.]/g, "\\$&")).join("|")})$`)
    build.onResolve({ filter }, (args) =>
      // The stand-in's own `require` is the real library, from node_modules.
      args.namespace === NAMESPACE ? { path: args.path, external: true } : { path: args.path, namespace: NAMESPACE })
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: standIn(args.path, requireHere(args.path)),
      loader: "js",
      resolveDir: root
    }))
  }
}
