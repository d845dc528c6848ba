// `npm test` after scripts/ensure.mjs: the static checks and the tests at the same time, one exit code.
//
// The type check (tsc, one core for about a minute on a clean clone), the format check, the
// lint and the dependency order (dependency-cruiser, docs/architecture.md) run beside
// `vitest run`, whose tests spend much of their time waiting (on Postgres, on
// processes, on HTTP): run one after the other they added their whole time to the run. Their
// output is held and printed after the tests', each under its name; the exit code is non-zero
// when any of them failed. Arguments are passed on to vitest (`npm test -- packages/http`).
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

/** Runs `command` with its output held (or passed through): resolves with its exit code and output. */
const run = (name, command, args, { inherit = false } = {}) =>
  new Promise((resolve) => {
    const since = performance.now()
    const child = spawn(command, args, { stdio: inherit ? "inherit" : ["ignore", "pipe", "pipe"], shell: false })
    let output = ""
    child.stdout?.on("data", (d) => (output += d))
    child.stderr?.on("data", (d) => (output += d))
    child.on("error", (error) => (output += `${error.message}\n`))
    child.on("close", (code, signal) =>
      resolve({ name, code: code ?? (signal === null ? 1 : 128), output, seconds: (performance.now() - since) / 1000 }))
  })

const bin = (name) => `node_modules/.bin/${name}`

// The type check builds the library packages as it checks them (tsconfig.check.json), which the
// packed-install test (examples/test/packed.test.ts) then packs: that test waits for this file, where
// the type check's exit code is written when it ends.
const typecheckDone = join(mkdtempSync(join(tmpdir(), "workbay-test-")), "typecheck-done")
process.env.WORKBAY_TYPECHECK_DONE = typecheckDone

const checks = [
  // Incremental: the build info lives under node_modules/.cache and dist, so a clean clone checks
  // everything and a later run re-checks only what changed.
  run("typecheck", bin("tsc"), ["-b", "tsconfig.check.json"]).then((r) => {
    writeFileSync(typecheckDone, String(r.code))
    return r
  }),
  // The dashboard's browser sources (JSX, the DOM): their own configuration.
  run("typecheck:dashboard", bin("tsc"), ["-p", "packages/dashboard/tsconfig.json"]),
  run("format:check", bin("dprint"), ["check"]),
  run("lint", bin("oxlint"), ["--deny-warnings", "--report-unused-disable-directives-severity=error"]),
  run("check:layers", bin("depcruise"), ["packages/*/src", "packages/*/test", "--output-type", "err-long"])
]
const tests = await run("vitest", bin("vitest"), ["run", ...process.argv.slice(2)], { inherit: true })
const results = [tests, ...(await Promise.all(checks))]

for (const r of results.slice(1)) {
  const status = r.code === 0 ? "passed" : `FAILED (exit ${r.code})`
  console.log(`\n${r.name}: ${status} in ${r.seconds.toFixed(1)} s`)
  if (r.code !== 0 || r.output.trim() !== "") console.log(r.output.trimEnd())
}
rmSync(dirname(typecheckDone), { recursive: true, force: true })
const failed = results.filter((r) => r.code !== 0).map((r) => r.name)
console.log(failed.length === 0 ? "\nnpm test: all passed" : `\nnpm test: FAILED: ${failed.join(", ")}`)
process.exit(failed.length === 0 ? 0 : 1)
