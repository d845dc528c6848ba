// Bundles the standalone server into one ES module: fast start-up, small resident set.
import { build } from "esbuild"

await build({
  entryPoints: ["packages/server/src/main.ts"],
  outfile: "packages/server/dist/main.mjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: true,
  sourcemap: "linked",
  legalComments: "none",
  // Native and optional modules stay external and load from node_modules.
  external: ["better-sqlite3", "pg-native"],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: "warning"
})
