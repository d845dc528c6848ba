/**
 * The README's "Workspaces on Docker" commands, run as written (bash, curl, jq) against the real
 * standalone server process with a real Docker daemon: the server turns the docker provisioner
 * on and says so (start-up line, `/deployment/config`, the health report's daemons); the
 * `docker` starter is imported with no edits, a workspace of it is created, its container's
 * agent (the self-contained executable, downloaded by the init script) reaches `ready`, and the
 * workspace is stopped. Then its "From the command line" commands: `workbay login`, `create` of a
 * second workspace of the template, `list`, `ssh` into its container (OpenSSH through the
 * service), `config-ssh` and `stop`.
 *
 * Two facts of this machine, set outside the README's commands: containers share the host's
 * network (`WORKBAY_DOCKER_NETWORK=host`, which the README names), and no registry is reachable,
 * so the starter's image `ubuntu:24.04` is this run's image without Node, curl or wget (only
 * perl, as Ubuntu's) under that tag, made by the tests' global set-up when the daemon has no such
 * image and untagged at the run's end. The executables come from the run's build (`--agent-binaries`). Everything the
 * server made carries its deployment id and is removed at the end; nothing else is touched.
 */
import { dockerClient } from "@workbay/docker"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { bundleCli } from "../../cli/test/support.js"
import { cleanUp, STARTER_IMAGE } from "../../docker/test/support.js"
import { readmeBlock } from "../../http/test/readme.js"
import { firstOwnerSession } from "./owner.js"
import { type ServerProcess, startServerProcess } from "./process.js"

const made = inject("workbayDocker")

describe.skipIf(made === null)("README: workspaces on Docker", () => {
  let server: ServerProcess
  let dir: string
  let deploymentId = ""

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "workbay-docker-quickstart-"))
    server = await startServerProcess(
      ["--data-dir", dir, "--provisioner-daemons", "1"],
      { WORKBAY_DOCKER_NETWORK: "host", WORKBAY_AGENT_BINARIES: made!.agentBinaries }
    )
    deploymentId = ((await (await fetch(`${server.url}/api/v2/buildinfo`)).json()) as { deployment_id: string })
      .deployment_id
  })
  afterAll(async () => {
    await server?.stop()
    if (deploymentId !== "") await cleanUp(dockerClient(), deploymentId)
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("says the docker provisioner is on, and runs the commands to a workspace whose agent is ready", async () => {
    expect(server.stdout()).toMatch(
      /Docker provisioner on: Docker \S+ at unix:\/\/\/var\/run\/docker\.sock; containers' network host\./
    )
    const token = await firstOwnerSession(server.url)
    const headers = { "Service-Session-Token": token }
    const config = (await (await fetch(`${server.url}/api/v2/deployment/config`, { headers })).json()) as {
      options: Array<{ name: string; value: unknown }>
    }
    expect(config.options.find((o) => o.name === "Docker Provisioner")?.value).toBe("on")

    const host = new URL(server.url).host
    const script = readmeBlock("### Workspaces on Docker").replaceAll("localhost:3000", host)
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      env: { ...process.env, TOKEN: token },
      timeout: 90_000
    }).catch((e) => {
      throw new Error(`the Docker quick start failed:\n${e.stdout}\n${e.stderr}\n${server.stderr()}`)
    })
    expect(stdout).toContain("import: succeeded")
    expect(stdout).toMatch(new RegExp(`"image":"${STARTER_IMAGE}"`))
    expect(stdout).toMatch(/"memory":"2 GiB"/)
    expect(stdout).toContain(`{"name":"main","status":"connected","lifecycle_state":"ready","version":"0.1.0"}`)
    expect(stdout.trim().split("\n").at(-1)).toBe("stop")

    const health = (await (await fetch(`${server.url}/api/v2/debug/health`, { headers })).json()) as {
      provisioner_daemons: { items: Array<{ provisioner_daemon: { provisioners: Array<string> } }> }
    }
    expect(health.provisioner_daemons.items.some((i) => i.provisioner_daemon.provisioners.includes("docker"))).toBe(
      true
    )

    // "From the command line": the same template through the `workbay` command (bundled here, in
    // place of `npx workbay`, which runs `npm start`'s build), with a home of its own for its
    // configuration and ~/.ssh/config. Its ssh is the system's OpenSSH through the service.
    const cli = await bundleCli()
    const home = mkdtempSync(join(tmpdir(), "workbay-docker-quickstart-home-"))
    const commands = readmeBlock("### From the command line").replaceAll("localhost:3000", host)
      .replaceAll("npx workbay", `${process.execPath} ${cli}`)
    const cliRun = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", commands], {
      env: { ...process.env, TOKEN: token, HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
      timeout: 120_000
    }).catch((e) => {
      throw new Error(`the command line quick start failed:\n${e.stdout}\n${e.stderr}\n${server.stderr()}`)
    })
    expect(cliRun.stdout).toContain("You're authenticated.")
    expect(cliRun.stdout).toMatch(/workspace has been created/)
    expect(cliRun.stdout).toMatch(/hello from \S+/)
    expect(cliRun.stdout).not.toContain(token)
    expect(cliRun.stderr).not.toContain(token)
    expect(readFileSync(join(home, ".ssh", "config"), "utf8")).toContain("Host workbay.dev")
    rmSync(home, { recursive: true, force: true })
  })
})
