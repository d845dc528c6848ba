/**
 * The `workbay` command as one file, the way a person on another machine gets it: in a container
 * with no Node (curl, sh and coreutils only; host networking, so everything stays on loopback),
 * the README's two lines download `/bin/workbay-linux-amd64` from a real deployment, check it
 * against its `.sha256` and install it; the installed file then logs in, lists, reads the
 * deployment's version, and warns before a command when the deployment's version differs.
 * `/bin/workbay-<os>-<arch>` for a platform not served answers 404.
 *
 * Needs a Docker daemon: without one the tests are skipped, saying "SKIPPED: Docker provisioner
 * tests" (packages/docker/test/globalSetup.ts), and fail when `CI` is set. Containers carry this
 * run's label and are removed at the end.
 */
import Docker from "dockerode"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import type { AgentBinariesManifest } from "../../../scripts/executables.mjs"
import { readmeBlock } from "../../http/test/readme.js"
import { type ServiceTestServer, startWithOwner } from "../../http/test/support.js"

const RUN_LABEL = "workbay.test.run"

const made = inject("workbayDocker")
const cliBinaries = inject("workbayCliBinaries")
const docker = new Docker({ socketPath: process.env.DOCKER_SOCKET ?? "/var/run/docker.sock" })

describe.skipIf(made === null || made === undefined)("the workbay command on a machine with no Node", () => {
  const run = randomUUID()
  let srv: ServiceTestServer
  let other: ServiceTestServer
  let token: string
  let otherToken: string

  beforeAll(async () => {
    let owner
    ;({ srv, owner } = await startWithOwner({ cliBinaries, lifecycle: false }))
    token = owner.token!
    ;({ srv: other, owner } = await startWithOwner({ lifecycle: false, settings: { version: "v0.9.3" } }))
    otherToken = owner.token!
  })
  afterAll(async () => {
    const mine = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${run}`] } })
    await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)))
    await srv?.close()
    await other?.close()
  })

  /** Runs `script` in `sh -e` in a container of the curl image to its end: its exit code and its output. */
  const inContainer = async (script: string) => {
    const container = await docker.createContainer({
      Image: made!.curlImage,
      Entrypoint: ["sh", "-ec", script],
      Env: ["HOME=/root"],
      WorkingDir: "/root",
      // A terminal: the log is the plain output, stdout and stderr together.
      Tty: true,
      Labels: { [RUN_LABEL]: run },
      HostConfig: { NetworkMode: "host" }
    })
    await container.start()
    const { StatusCode } = await container.wait()
    const log = String(await container.logs({ stdout: true, stderr: true, follow: false })).replaceAll("\r\n", "\n")
    await container.remove({ force: true }).catch(() => undefined)
    return { code: StatusCode as number, log }
  }

  it("is downloaded with the README's lines, checked, installed, and works against the deployment", async () => {
    const manifest = JSON.parse(readFileSync(join(cliBinaries, "manifest.json"), "utf8")) as AgentBinariesManifest
    const served = manifest.binaries.find((b) => b.arch === "amd64")!
    const install = readmeBlock("On any other machine, without Node").replaceAll("http://localhost:3000", srv.url)
    const { code, log } = await inContainer(`
      if command -v node; then echo "node is here"; exit 3; fi
      ${install}
      export PATH="$HOME/.local/bin:$PATH"
      echo "installed: $(command -v workbay) $(wc -c < "$(command -v workbay)")"
      workbay --version
      workbay login ${srv.url} --token ${token}
      workbay whoami
      workbay list -o json
      workbay version
      echo "--- against another version"
      workbay --url ${other.url} --token ${otherToken} users list -o json > users.json
      echo "users: $(wc -c < users.json)"
      workbay --url ${other.url} --token ${otherToken} users list --no-version-warning > /dev/null
      echo done
    `)
    expect(code, log).toBe(0)
    expect(log).toContain("workbay-linux-amd64: OK")
    expect(log).toContain(`installed: /root/.local/bin/workbay ${served.size}`)
    expect(log).toContain(`\n${manifest.version}\n`)
    expect(log).toContain("You're authenticated.")
    expect(log).toContain(`Workbay CLI v${manifest.version}`)
    expect(log).toContain(`Deployment ${srv.url}: v${manifest.version}`)
    // The same versions: no warning; against the other deployment, one, once, before the answer.
    const [same, against] = log.split("--- against another version")
    expect(same).not.toContain("version mismatch")
    expect(against!.match(/version mismatch/g)).toHaveLength(1)
    expect(against).toContain(
      `version mismatch: client v${manifest.version}, server v0.9.3\ndownload the deployment's own: curl -fsSLO ${other.url}/bin/workbay-linux-amd64`
    )
    expect(against).toMatch(/users: [1-9]\d*\n/)
    expect(log).toContain("done")
  }, 120_000)

  it("refuses a download whose checksum does not match, and a platform the deployment does not serve", async () => {
    const { code, log } = await inContainer(`
      curl -fsSLO ${srv.url}/bin/workbay-linux-amd64
      echo "0000000000000000000000000000000000000000000000000000000000000000  workbay-linux-amd64" > sum
      if sha256sum -c sum; then echo "accepted a wrong checksum"; exit 3; fi
      curl -sS -o /dev/null -w "status %{http_code}\\n" ${srv.url}/bin/workbay-plan9-mips
      curl -sS -o /dev/null -w "status %{http_code}\\n" ${other.url}/bin/workbay-linux-amd64
    `)
    expect(code, log).toBe(0)
    expect(log).toContain("workbay-linux-amd64: FAILED")
    expect(log.match(/status 404/g)).toHaveLength(2)
  }, 60_000)
})
