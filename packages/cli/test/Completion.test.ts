/**
 * `workbay completion <shell>` in real shells: bash (with Debian's bash-completion, whose
 * `_get_comp_words_by_ref` the script uses) runs the script's completion function on a command
 * line and reads COMPREPLY; zsh loads the script under compinit and runs its function with
 * `_describe` printing the completions it was given (a completion widget's builtins need a
 * terminal). Both
 * ask the bundled command (`workbay complete -- ...`) on PATH. Without bash-completion or zsh the
 * test prints `SKIPPED: ...` (and fails under CI: scripts/ensure.mjs installs them).
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { bundleCli } from "./support.js"

const BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
const hasBash = existsSync(BASH_COMPLETION)
const hasZsh = spawnSync("sh", ["-c", "command -v zsh"]).status === 0
for (const [has, what] of [[hasBash, "bash-completion"], [hasZsh, "zsh"]] as const) {
  if (!has) {
    console.warn(`SKIPPED: workbay completion in ${what} (install Debian's ${what})`)
    if (process.env.CI) throw new Error(`${what} is required under CI`)
  }
}

let env: Record<string, string>

beforeAll(async () => {
  const bundle = await bundleCli()
  const bin = join(mkdtempSync(join(tmpdir(), "workbay-cli-completion-")), "bin")
  mkdirSync(bin)
  writeFileSync(join(bin, "workbay"), `#!/bin/sh\nexec "${process.execPath}" "${bundle}" "$@"\n`, { mode: 0o755 })
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: join(bin, ".."), TERM: "dumb" }
})

const run = (shell: string, script: string) => {
  const r = spawnSync(shell, ["-c", script], { env, encoding: "utf8", timeout: 60_000 })
  if (r.status !== 0) throw new Error(`${shell} exited ${r.status}: ${r.stderr}`)
  return r.stdout.split("\n").filter((l) => l !== "")
}

/** What bash completes for `line` (its last word the one being completed). */
const bash = (line: string) =>
  run(
    "bash",
    `source ${BASH_COMPLETION}
source <(workbay completion bash)
COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
__workbay_complete
printf '%s\\n' "\${COMPREPLY[@]}"`
  )

/** What zsh's completion function offers for `words` (the last one being completed). */
const zsh = (words: ReadonlyArray<string>) =>
  run(
    "zsh",
    `autoload -U compinit && compinit -u -D
source <(workbay completion zsh)
_describe() { print -l -- "\${completions[@]%%:*}" }
words=(${words.map((w) => `'${w}'`).join(" ")}); CURRENT=\${#words}
_workbay`
  )

describe("workbay completion", () => {
  it.skipIf(!hasBash)("bash completes commands, subcommands, flags and a flag's choices", () => {
    expect(bash("workbay sch")).toEqual(["schedule"])
    expect(bash("workbay schedule ")).toEqual(expect.arrayContaining(["show", "start", "stop", "extend"]))
    expect(bash("workbay templates versions ")).toEqual(expect.arrayContaining(["list", "archive", "unarchive"]))
    expect(bash("workbay list --out")).toEqual(["--output"])
    expect(bash("workbay list --output ")).toEqual(["table", "json"])
    // The hidden request command is not offered.
    expect(bash("workbay comp")).toEqual(["completion"])
  })

  it.skipIf(!hasZsh)("zsh loads the script under compinit and completes commands and flags", () => {
    expect(
      run("zsh", "autoload -U compinit && compinit -u -D; source <(workbay completion zsh); print $_comps[workbay]")
    )
      .toEqual(["_workbay"])
    expect(zsh(["workbay", "tok"])).toEqual(["tokens"])
    expect(zsh(["workbay", "users", ""])).toEqual(expect.arrayContaining(["list", "create", "suspend", "activate"]))
    expect(zsh(["workbay", "show", "--out"])).toEqual(["--output"])
  })

  it("completion of an unknown shell is a bad command line", () => {
    const r = spawnSync("workbay", ["completion", "tcsh"], { env, encoding: "utf8" })
    expect(r.status).toBe(2)
  })
})
