/**
 * A fresh clone installs with `npm ci` (what CI systems and users run): the lock file must hold
 * every package the manifests ask for, including the optional platform packages (rollup's, esbuild's)
 * that npm leaves out of a lock written over an existing node_modules. `npm ci --dry-run` checks
 * exactly that agreement without touching node_modules or the network.
 */
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** npm's variables under `npm test` describe this run's workspace; the check starts npm afresh. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_(?!config_(cache|registry|userconfig|nodedir)$)/i.test(k))
)

describe("install", () => {
  it("the lock file agrees with every manifest, so npm ci installs a fresh clone", async () => {
    const run = await promisify(execFile)("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: root,
      env
    })
      .then(({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }))
      .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        out: `${e.stdout ?? ""}${e.stderr ?? ""}`
      }))
    expect(run.out.split("\n").filter((l) => /Missing:|Invalid:|EUSAGE/.test(l))).toEqual([])
    expect(run.code).toBe(0)
  })
})
