/**
 * The workbay command as a user runs it: a child process (src/bin.ts bundled) against a real
 * server process on a fresh SQLite folder, its workspaces built by the built-in `workbay`
 * provisioner (no Docker) from a template that costs credits, with no quota set up.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServerProcess } from "../../server/test/process.js"
import { api, bundleCli, type CliUser, cliUser, eventually } from "./support.js"

const PASSWORD = "Correct-Horse-Battery-9"
const EMAIL = "admin@example.com"

const TEMPLATE = `parameters:
  - name: region
    default: eu
    options:
      - { name: Europe, value: eu }
      - { name: America, value: us }
  - name: size
    type: number
    default: 2
    mutable: true
resources:
  - name: box
    type: machine
    daily_cost: 2
    agents:
      - name: main
build:
  logs: ["Building \${workspace.name} in \${param.region} size \${param.size}"]
`

const VARIABLES_TEMPLATE = `variables:
  - { name: region }
  - { name: cpus, type: number, default: 1 }
  - { name: debug, type: bool, default: false }
  - { name: token, sensitive: true, default: "" }
resources:
  - name: box
    type: machine
`

/** A tar archive of one file named `name` (any name: the test's own bytes, not a packer's). */
const tarOf = (name: string, body: string) => {
  const header = Buffer.alloc(512)
  header.write(name, 0, 100)
  header.write("0000644\0", 100)
  header.write("0000000\0", 108)
  header.write("0000000\0", 116)
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, "0")}\0`, 124)
  header.write("00000000000\0", 136)
  header.fill(" ", 148, 156)
  header.write("0", 156)
  header.write("ustar\0", 257)
  header.write("00", 263)
  let sum = 0
  for (const b of header) sum += b
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148)
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512)
  data.write(body)
  return Buffer.concat([header, data, Buffer.alloc(1024)])
}

let server: ServerProcess
let bundle: string
let user: CliUser
let token: string

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

beforeAll(async () => {
  ;[server, bundle] = await Promise.all([
    startServerProcess(["--data-dir", tempDir("workbay-cli-data-")], { DATABASE_URL: "" }),
    bundleCli()
  ])
  user = cliUser(bundle)
})

afterAll(async () => {
  await server?.stop()
})

const ok = (r: { code: number; stdout: string; stderr: string }) => {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`)
  return r
}

describe("workbay", () => {
  it("refuses every command but login before a login, with exit code 1", async () => {
    const r = await user.run(["list"])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("You are not logged in. Try logging in using 'workbay login <url>'.")
  })

  it("exits 2 on a bad command line", async () => {
    expect((await user.run(["bogus"])).code).toBe(2)
    expect((await user.run(["list", "--output", "yaml"])).code).toBe(2)
    expect((await user.run(["start"])).code).toBe(2)
    expect((await user.run(["--help"])).code).toBe(0)
  })

  it("login offers to create the first user, stores the session 0600 in a 0700 folder, and never prints it", async () => {
    const r = ok(
      await user.run([
        "login",
        server.url,
        "--first-user-username",
        "admin",
        "--first-user-email",
        EMAIL,
        "--first-user-password",
        PASSWORD
      ])
    )
    expect(r.stdout).toContain("Welcome to Workbay, admin!")
    token = readFileSync(join(user.configDir, "session"), "utf8").trim()
    expect(token).toMatch(/^\w{10}-\w{22}$/)
    expect(readFileSync(join(user.configDir, "url"), "utf8").trim()).toBe(server.url)
    expect(statSync(join(user.configDir, "session")).mode & 0o777).toBe(0o600)
    expect(statSync(user.configDir).mode & 0o777).toBe(0o700)
    expect(r.stdout + r.stderr).not.toContain(token)
    expect(r.stdout + r.stderr).not.toContain(PASSWORD)
  })

  it("version: this command's, then the deployment's (the same: no warning); as JSON; an unreachable one said", async () => {
    const r = ok(await user.run(["version"]))
    expect(r.stdout).toBe(
      `Workbay CLI v0.1.0 (Node ${process.version}, ${process.platform}/${process.arch})\nDeployment ${server.url}: v0.1.0\n`
    )
    expect(r.stderr).toBe("")
    const json = JSON.parse(ok(await user.run(["version", "-o", "json"])).stdout)
    expect(json).toMatchObject({ version: "v0.1.0", deployment: { url: server.url, version: "v0.1.0" } })
    const away = ok(await cliUser(bundle).run(["version", "--url", "http://127.0.0.1:9"]))
    expect(away.stdout).toMatch(/^Deployment http:\/\/127\.0\.0\.1:9: not reachable \(.+\)$/m)
  })

  it("whoami, in words and as JSON", async () => {
    expect(ok(await user.run(["whoami"])).stdout).toBe(
      `Workbay is running at ${server.url}, you're authenticated as admin.\n`
    )
    const json = JSON.parse(ok(await user.run(["whoami", "-o", "json"])).stdout)
    expect(json).toMatchObject({ username: "admin", email: EMAIL })
  })

  it("logout ends the session on the server and removes it here", async () => {
    const r = ok(await user.run(["logout", "--yes"]))
    expect(r.stdout).toContain("You are no longer logged in.")
    expect(() => statSync(join(user.configDir, "session"))).toThrow()
    expect((await api(server.url, token).get("/users/me")).status).toBe(401)
    expect((await user.run(["whoami"])).code).toBe(1)
  })

  it("login with a password typed at the prompts, which is not echoed", async () => {
    const r = ok(await user.run(["login", server.url], { input: `${EMAIL}\n${PASSWORD}\n` }))
    expect(r.stderr).toContain("Password:")
    expect(r.stdout + r.stderr).not.toContain(PASSWORD)
    token = readFileSync(join(user.configDir, "session"), "utf8").trim()
    expect(r.stdout + r.stderr).not.toContain(token)
    expect((await api(server.url, token).get("/users/me")).body.username).toBe("admin")
  })

  it("a wrong password: the service's message, exit code 1", async () => {
    const other = cliUser(bundle)
    const r = await other.run(["login", server.url, "--email", EMAIL], { input: "wrong-password\n" })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: Incorrect email or password\./m)
  })

  it("login with a token (--token, or pasted at the prompt), checked against the deployment", async () => {
    const withFlag = cliUser(bundle)
    const r = ok(await withFlag.run(["login", server.url, "--token", token]))
    expect(r.stdout + r.stderr).not.toContain(token)
    expect(statSync(join(withFlag.configDir, "session")).mode & 0o777).toBe(0o600)
    expect(ok(await withFlag.run(["whoami"])).stdout).toContain("authenticated as admin")

    const pasted = cliUser(bundle)
    const p = ok(await pasted.run(["login", server.url], { input: `\n${token}\n` }))
    expect(p.stderr).toContain("Paste your token:")
    expect(p.stdout + p.stderr).not.toContain(token)
    expect(readFileSync(join(pasted.configDir, "session"), "utf8").trim()).toBe(token)

    const refused = await cliUser(bundle).run(["login", server.url, "--token", "aaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbb"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("That token was refused by the deployment.")
  })

  it("--url and --token (and their variables) instead of a stored login; --global-config elsewhere", async () => {
    const nobody = cliUser(bundle)
    expect(ok(await nobody.run(["whoami", "--url", server.url, "--token", token])).stdout).toContain("admin")
    expect(
      ok(await nobody.run(["whoami"], { env: { WORKBAY_URL: server.url, WORKBAY_SESSION_TOKEN: token } })).stdout
    ).toContain("admin")
    const dir = join(tempDir("workbay-cli-global-"), "cfg")
    ok(await nobody.run(["login", server.url, "--token", token, "--global-config", dir]))
    expect(statSync(join(dir, "session")).mode & 0o777).toBe(0o600)
    expect(ok(await nobody.run(["--global-config", dir, "whoami"])).stdout).toContain("admin")
    expect(ok(await nobody.run(["whoami"], { env: { WORKBAY_CONFIG_DIR: dir } })).stdout).toContain("admin")
  })

  it("templates push creates a template from a folder, then updates its active version; templates list shows it", async () => {
    const dir = join(tempDir("workbay-cli-tpl-"), "box")
    mkdirSync(dir)
    writeFileSync(join(dir, "template.yaml"), TEMPLATE)
    writeFileSync(join(dir, "README.md"), "# Box\n")
    const r = ok(await user.run(["templates", "push", dir]))
    expect(r.stdout).toMatch(/Template box created with version \S+\./)

    const list = ok(await user.run(["templates", "list"]))
    expect(list.stdout.split("\n")[0]).toMatch(/^NAME\s+ORGANIZATION\s+LAST UPDATED\s+USED BY$/)
    expect(list.stdout).toMatch(/^box\s+coder\s/m)
    const first = JSON.parse(ok(await user.run(["templates", "list", "-o", "json"])).stdout)
    expect(first.map((t: any) => t.name)).toEqual(["box"])

    // Pushed again: a new version of box, made its active one.
    const again = ok(await user.run(["templates", "push", dir, "--name", "box", "--version-name", "v2", "-o", "json"]))
    expect(again.stderr).toContain("Template box updated: version v2 is now active.")
    const template = JSON.parse(again.stdout)
    expect(template.active_version_id).not.toBe(first[0].active_version_id)
    expect((await api(server.url, token).get(`/templateversions/${template.active_version_id}`)).body.name).toBe("v2")
  })

  it("prebuilds pause and resume set the prebuilds settings (again: no change, no error)", async () => {
    const settings = async () => (await api(server.url, token).get("/prebuilds/settings")).body
    expect(ok(await user.run(["prebuilds", "pause"])).stderr).toContain("Prebuilds are now paused.")
    expect(await settings()).toEqual({ reconciliation_paused: true })
    expect(ok(await user.run(["prebuild", "pause"])).stderr).toContain("Prebuilds are now paused.")
    expect(ok(await user.run(["prebuilds", "resume"])).stderr).toContain("Prebuilds are now resumed.")
    expect(await settings()).toEqual({ reconciliation_paused: false })
  })

  it("templates push of a broken template: the import's error, exit code 1", async () => {
    const dir = tempDir("workbay-cli-bad-")
    writeFileSync(join(dir, "template.yaml"), "resources: 12\n")
    const r = await user.run(["templates", "push", dir, "--name", "broken"])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("error: The template version's import failed.")
  })

  it("templates versions list, pull (a folder, --tar, --version), versions archive/unarchive and archive", async () => {
    const listed = ok(await user.run(["templates", "versions", "list", "box"]))
    const lines = listed.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^NAME\s+CREATED AT\s+CREATED BY\s+STATUS\s+ACTIVE$/)
    expect(lines[1]).toMatch(/^v2\s+\S+\s+admin\s+Succeeded\s+Active$/)
    expect(lines).toHaveLength(3)
    const first = lines[2]!.split(/\s+/)[0]!
    expect(lines[2]).toMatch(/\s+Succeeded$/)

    const dir = join(tempDir("workbay-cli-pull-"), "out")
    const pulled = ok(await user.run(["templates", "pull", "box", dir]))
    expect(pulled.stderr).toContain("Pulling template version v2...")
    expect(readFileSync(join(dir, "template.yaml"), "utf8")).toBe(TEMPLATE)
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# Box\n")
    // Not empty now: asked, and no answer is no.
    const asked = await user.run(["templates", "pull", "box", dir, "--version", first])
    expect(asked.code).toBe(1)
    expect(asked.stderr).toContain("is not empty")
    ok(await user.run(["templates", "pull", "box", dir, "--version", first, "--yes"]))
    const tar = ok(await user.run(["templates", "pull", "box", "--tar", "--version", "latest"]))
    expect(tar.stdout).toContain("template.yaml")
    expect(tar.stdout.length % 512).toBe(0)

    expect(ok(await user.run(["templates", "versions", "archive", "box", first])).stdout).toBe(
      `Version ${first} archived.\n`
    )
    expect(ok(await user.run(["templates", "versions", "ls", "box"])).stdout).not.toContain(first)
    expect(ok(await user.run(["templates", "versions", "ls", "box", "--include-archived"])).stdout).toMatch(
      new RegExp(`^${first}\\s.*\\sArchived$`, "m")
    )
    ok(await user.run(["templates", "versions", "unarchive", "box", first]))
    // The active version cannot be archived: the service's refusal.
    expect((await user.run(["templates", "versions", "archive", "box", "v2"])).code).toBe(1)
    expect(ok(await user.run(["templates", "archive", "box"])).stdout).toBe("Archived 0 versions of box.\n")
    expect(ok(await user.run(["templates", "archive", "box", "--all"])).stdout).toBe("Archived 1 version of box.\n")
    const json = JSON.parse(ok(await user.run(["templates", "versions", "list", "box", "-o", "json"])).stdout)
    expect(json.map((v: any) => v.name)).toEqual(["v2"])

    for (const bad of [["pull", "nope"], ["versions", "list", "nope"], ["pull", "box", "--version", "nope"]]) {
      expect((await user.run(["templates", ...bad])).code).toBe(1)
    }
  })

  it("templates pull extracts nothing outside its folder: an archive entry with .. fails the pull", async () => {
    const headers = { authorization: `Bearer ${token}` }
    const orgs = (await api(server.url, token).get("/users/me/organizations")).body
    const upload = await fetch(`${server.url}/api/v2/files`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-tar" },
      body: tarOf("../escape.txt", "out\n")
    })
    expect(upload.status).toBe(201)
    const { hash } = (await upload.json()) as { hash: string }
    const template = (await api(server.url, token).get(`/organizations/${orgs[0].id}/templates/box`)).body
    const version = await fetch(`${server.url}/api/v2/organizations/${orgs[0].id}/templateversions`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        name: "evil",
        template_id: template.id,
        storage_method: "file",
        file_id: hash,
        provisioner: "workbay"
      })
    })
    expect(version.status).toBe(201)
    const parent = tempDir("workbay-cli-evil-")
    const r = await user.run(["templates", "pull", "box", join(parent, "in"), "--version", "evil"])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain("Pulling template version evil...")
    expect(r.stderr).toMatch(/^error: .*\.\./m)
    expect(() => statSync(join(parent, "escape.txt"))).toThrow()
  })

  it("templates push takes variables from --variables-file and --variable (which wins); the next push keeps them", async () => {
    const dir = join(tempDir("workbay-cli-vars-"), "vars")
    mkdirSync(dir)
    writeFileSync(join(dir, "template.yaml"), VARIABLES_TEMPLATE)
    const missing = await user.run(["templates", "push", dir])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("Required template variables need values: region.")

    const file = join(tempDir("workbay-cli-varfile-"), "variables.yaml")
    writeFileSync(file, "region: eu\ncpus: 4\ndebug: true\ntoken: s3cret\n")
    ok(await user.run(["templates", "push", dir, "--variables-file", file, "--variable", "region=us"]))
    const variablesOf = async () => {
      const t = (await api(server.url, token).get("/organizations/default/templates/vars")).body
      const listed: Array<any> =
        (await api(server.url, token).get(`/templateversions/${t.active_version_id}/variables`))
          .body
      return Object.fromEntries(listed.map((v) => [v.name, v.value]))
    }
    expect(await variablesOf()).toEqual({ region: "us", cpus: "4", debug: "true", token: "*redacted*" })

    // The next version of the template keeps what the active one was given, but what is given again.
    ok(await user.run(["templates", "push", dir, "--variable", "cpus=8"]))
    expect(await variablesOf()).toEqual({ region: "us", cpus: "8", debug: "true", token: "*redacted*" })

    // A file that is not a map of names to plain values is a bad command line.
    writeFileSync(file, "region: [eu, us]\n")
    const bad = await user.run(["templates", "push", dir, "--variables-file", file])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("the value of region must be a string, a number or a boolean.")
    const unreadable = await user.run(["templates", "push", dir, "--variables-file", join(dir, "none.yaml")])
    expect(unreadable.code).toBe(2)
    expect(unreadable.stderr).toMatch(/^error: Could not read .*none\.yaml/)
  })

  it("create with --parameter and with --rich-parameter-file follows the build's logs", async () => {
    const r = ok(await user.run(["create", "ws1", "--template", "box", "--parameter", "region=us"]))
    expect(r.stdout).toContain("Building ws1 in us size 2")
    expect(r.stdout).toContain("The admin/ws1 workspace has been created!")
    // The template costs credits and this deployment has no quota set up (no group has an
    // allowance): the build went through, its cost counted.
    const quota = await api(server.url, token).get("/organizations/default/members/me/workspace-quota")
    expect(quota.body).toEqual({ budget: 0, credits_consumed: 2 })

    const file = join(tempDir("workbay-cli-params-"), "params.yaml")
    writeFileSync(file, "size: 4\nregion: eu\n")
    const r2 = ok(
      await user.run(["create", "ws2", "-t", "box", "--rich-parameter-file", file, "--parameter", "size=5"])
    )
    expect(r2.stdout).toContain("Building ws2 in eu size 5")

    const ws = (await api(server.url, token).get("/users/me/workspace/ws2")).body
    const params = (await api(server.url, token).get(`/workspacebuilds/${ws.latest_build.id}/parameters`)).body
    expect(params).toEqual(expect.arrayContaining([{ name: "region", value: "eu" }, { name: "size", value: "5" }]))
  })

  it("create refuses what the service refuses, with its message and validations", async () => {
    const r = await user.run(["create", "ws3", "-t", "box", "--parameter", "region=mars"])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: /)
    const missing = await user.run(["create", "ws3", "-t", "nope"])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^error: .*not found|does not exist/im)
  })

  it("list shows the workspaces as a table and as JSON", async () => {
    const r = ok(await user.run(["list"]))
    const lines = r.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^WORKSPACE\s+TEMPLATE\s+STATUS\s+HEALTHY\s+LAST BUILT\s+OUTDATED$/)
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ["admin/ws1", "box", "Running"],
      ["admin/ws2", "box", "Running"]
    ])
    const json = JSON.parse(ok(await user.run(["list", "--output", "json"])).stdout)
    expect(json.map((w: any) => w.name).sort()).toEqual(["ws1", "ws2"])
  })

  it("show: the build, the resource with its agent not connected yet; an unknown workspace exits 1", async () => {
    const r = ok(await user.run(["show", "ws1"]))
    expect(r.stdout.split("\n")[0]).toMatch(/^admin\/ws1: running, template box \(version \S+\), built \d+[smhd] ago$/)
    expect(r.stdout).toMatch(/^machine\.box$/m)
    expect(r.stdout).toMatch(
      /^└─ main \(linux, amd64\)\s+⦾ (connecting|timeout) \[\d+s\]\s+✘ .+\s+\(unknown\)\s+workbay ssh ws1$/m
    )
    const json = JSON.parse(ok(await user.run(["show", "ws1", "-o", "json"])).stdout)
    expect(json).toMatchObject({ name: "ws1", owner_name: "admin" })
    expect((await user.run(["show", "nope"])).code).toBe(1)
  })

  it("favorite puts a workspace first in lists, unfavorite takes it back; an unknown one is the service's 404", async () => {
    expect(ok(await user.run(["favorite", "ws2"])).stdout).toBe("Workspace \"ws2\" added to favorites.\n")
    const json = JSON.parse(ok(await user.run(["list", "-o", "json"])).stdout)
    expect(json.map((w: any) => [w.name, w.favorite])).toEqual([["ws2", true], ["ws1", false]])
    expect(ok(await user.run(["unfav", "admin/ws2"])).stdout).toBe("Workspace \"ws2\" removed from favorites.\n")
    expect((await api(server.url, token).get("/users/me/workspace/ws2")).body.favorite).toBe(false)
    const missing = await user.run(["favorite", "nope"])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^error: /)
    expect((await user.run(["favorite"])).code).toBe(2)
  })

  it("stop, start and restart build the workspace and wait for it", async () => {
    const stop = ok(await user.run(["stop", "ws1"]))
    expect(stop.stdout).toContain("The admin/ws1 workspace has been stopped.")
    expect((await api(server.url, token).get("/users/me/workspace/ws1")).body.latest_build.status).toBe("stopped")

    const start = ok(await user.run(["start", "admin/ws1"]))
    expect(start.stdout).toContain("Building ws1 in us size 2")
    expect((await api(server.url, token).get("/users/me/workspace/ws1")).body.latest_build.status).toBe("running")

    const restart = ok(await user.run(["restart", "ws1", "-o", "json"]))
    const ws = JSON.parse(restart.stdout)
    expect(ws.latest_build).toMatchObject({ transition: "start", status: "running", build_number: 5 })
  })

  it("logs prints the latest build's logs (and as JSON)", async () => {
    const r = ok(await user.run(["logs", "ws1"]))
    expect(r.stdout).toContain("==> Starting workspace")
    expect(r.stdout).toContain("Building ws1 in us size 2")
    const json = JSON.parse(ok(await user.run(["logs", "ws1", "-o", "json", "--build", "2"])).stdout)
    expect(json.some((l: any) => l.output === "Building ws1 in us size 2")).toBe(true)
  })

  it("an unknown workspace: the service's message, exit code 1", async () => {
    const answer = await api(server.url, token).get("/users/me/workspace/nope")
    expect(answer.status).toBe(404)
    for (const command of [["start", "nope"], ["stop", "nope"], ["logs", "nope"], ["ssh", "nope"]]) {
      const r = await user.run(command)
      expect(r.code).toBe(1)
      expect(r.stderr.split("\n")[0]).toBe(`error: ${answer.body.message}`)
    }
  })

  it("schedule start, stop and extend set the workspace's schedules, show shows them; manual turns them off", async () => {
    const utc = { env: { TZ: "UTC" } }
    const started = ok(await user.run(["schedule", "start", "ws1", "9:30AM", "Mon-Fri", "Europe/Dublin"], utc))
    const header = /^WORKSPACE\s+STARTS AT\s+STARTS NEXT\s+STOPS AFTER\s+STOPS NEXT$/
    expect(started.stdout.split("\n")[0]).toMatch(header)
    expect(started.stdout).toMatch(
      /^admin\/ws1\s+9:30AM Mon-Fri \(Europe\/Dublin\)\s+(Mon|Tue|Wed|Thu|Fri) \w{3} \d+ \d+:30AM UTC/m
    )
    let ws = (await api(server.url, token).get("/users/me/workspace/ws1")).body
    expect(ws.autostart_schedule).toBe("CRON_TZ=Europe/Dublin 30 9 * * Mon-Fri")

    ok(await user.run(["schedule", "stop", "ws1", "2h30m"], utc))
    ws = (await api(server.url, token).get("/users/me/workspace/ws1")).body
    expect(ws.ttl_ms).toBe(2.5 * 3_600_000)
    // The running build has no deadline (shutdown is manual): its extension is the service's refusal.
    const manual = await user.run(["schedule", "extend", "ws1", "90m"])
    expect(manual.code).toBe(1)
    expect(manual.stderr).toMatch(/^error: /)
    // The next build takes the stop schedule.
    ok(await user.run(["restart", "ws1"]))
    const extended = ok(await user.run(["schedule", "extend", "ws1", "90m"], utc))
    ws = (await api(server.url, token).get("/users/me/workspace/ws1")).body
    expect(Math.abs(Date.parse(ws.latest_build.deadline) - (Date.now() + 90 * 60_000))).toBeLessThan(60_000)
    expect(extended.stdout).toMatch(
      /^admin\/ws1\s+9:30AM Mon-Fri \(Europe\/Dublin\)\s+.+\s+2h30m\s+\w{3} \w{3} \d+ \d+:\d{2}[AP]M UTC$/m
    )
    expect(ok(await user.run(["schedule", "extend", "ws1", "10m"])).stdout).toBe(
      "Please specify a duration of at least 30 minutes.\n"
    )
    const json = JSON.parse(ok(await user.run(["schedule", "show", "-o", "json"], utc)).stdout)
    expect(json.find((r: any) => r.workspace === "admin/ws1")).toMatchObject({
      starts_at: "9:30AM Mon-Fri (Europe/Dublin)",
      stops_after: "2h30m"
    })

    ok(await user.run(["schedule", "start", "ws1", "manual"]))
    ok(await user.run(["schedule", "stop", "ws1", "manual"]))
    ws = (await api(server.url, token).get("/users/me/workspace/ws1")).body
    expect([ws.autostart_schedule ?? "", ws.ttl_ms ?? null]).toEqual(["", null])
    expect(ok(await user.run(["schedule", "show", "ws1"])).stdout).toMatch(/^admin\/ws1$/m)

    // Bad command lines (exit 2) never reach the service; its own refusals exit 1.
    for (const bad of [["25:00"], ["9:30", "Someday"], ["9:30", "Mon", "Mars/Olympus"], ["13:00PM"]]) {
      expect((await user.run(["schedule", "start", "ws1", ...bad])).code).toBe(2)
    }
    expect((await user.run(["schedule", "stop", "ws1", "soon"])).code).toBe(2)
    const tooShort = await user.run(["schedule", "stop", "ws1", "30s"])
    expect(tooShort.code).toBe(1)
    expect(tooShort.stderr).toMatch(/^error: /)
    expect((await user.run(["schedule", "show", "nope"])).code).toBe(1)
  })

  it("open vscode prints the Remote-SSH link (no token in it), adds config-ssh's host first, and runs the desktop's opener", async () => {
    const home = tempDir("workbay-cli-vscode-")
    const file = join(home, "ssh_config")
    // No host yet, no answer: nothing written, nothing opened.
    const refused = await user.run(["open", "vscode", "ws1", "--ssh-config-file", file, "--no-open"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("has no host workbay.ws1 yet")
    expect(() => statSync(file)).toThrow()

    // The desktop's opener: a script on PATH that writes down what it was given.
    const bin = join(home, "bin")
    mkdirSync(bin)
    const opened = join(home, "opened")
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > ${opened}\n`, { mode: 0o755 })
    const env = { PATH: `${bin}:${process.env.PATH}` }
    const r = ok(await user.run(["open", "vscode", "ws1", "--ssh-config-file", file, "--yes"], { env }))
    expect(r.stdout).toBe("vscode://vscode-remote/ssh-remote+workbay.ws1\n")
    expect(readFileSync(file, "utf8")).toContain("Host workbay.ws1")
    await eventually(async () => statSync(opened, { throwIfNoEntry: false })?.size ?? 0, (n) => n > 0, "the opener ran")
    expect(readFileSync(opened, "utf8")).toBe("vscode://vscode-remote/ssh-remote+workbay.ws1")
    expect(r.stdout + r.stderr).not.toContain(token)

    // A folder: absolute as given; the host already there, the file is left as it is.
    const before = readFileSync(file, "utf8")
    const dir = ok(await user.run(["open", "vscode", "ws1", "/src/my app", "--ssh-config-file", file, "--no-open"]))
    expect(dir.stdout).toBe("vscode://vscode-remote/ssh-remote+workbay.ws1/src/my%20app\n")
    expect(readFileSync(file, "utf8")).toBe(before)
    // A relative folder needs the agent's directory (none here): a bad command line.
    expect((await user.run(["open", "vscode", "ws1", "src", "--ssh-config-file", file, "--no-open"])).code).toBe(2)
    expect((await user.run(["open", "vscode", "nope", "--ssh-config-file", file, "--no-open"])).code).toBe(1)
  })

  it("ssh to a stopped workspace says so, exit code 1", async () => {
    ok(await user.run(["stop", "ws2"]))
    for (const host of ["ws2", "workbay.ws2", "admin/ws2", "ws2.main"]) {
      const r = await user.run(["ssh", "--stdio", host])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain("Workspace admin/ws2 is stopped")
      expect(r.stderr).toContain("workbay start admin/ws2")
    }
  })

  it("config-ssh writes its block once, keeps the rest of the file, and --remove takes it out", async () => {
    const file = join(tempDir("workbay-cli-ssh-"), "config")
    const original = "Host other\n  HostName example.com\n  User me\n"
    writeFileSync(file, original)
    const dry = ok(await user.run(["config-ssh", "--ssh-config-file", file, "--dry-run"]))
    expect(dry.stdout).toContain("Host workbay.ws1")
    expect(readFileSync(file, "utf8")).toBe(original)

    ok(await user.run(["config-ssh", "--ssh-config-file", file, "--yes"]))
    const written = readFileSync(file, "utf8")
    expect(written.startsWith(original)).toBe(true)
    expect(written).toContain("# ------------START-WORKBAY-----------\n")
    expect(written).toContain("# ------------END-WORKBAY------------\n")
    expect(written).toMatch(/^Host workbay\.ws1$/m)
    expect(written).toMatch(/^Host workbay\.ws2$/m)
    expect(written).toMatch(/^\tProxyCommand \S+node\S* \S+workbay\.mjs ssh --stdio %h$/m)
    expect(written).toContain("\tStrictHostKeyChecking no\n")

    const second = ok(await user.run(["config-ssh", "--ssh-config-file", file, "--yes"]))
    expect(second.stdout).toContain("No changes")
    expect(readFileSync(file, "utf8")).toBe(written)

    // Lines the user adds after the block stay where they are.
    writeFileSync(file, `${written}Host later\n  HostName later.example.com\n`)
    ok(await user.run(["config-ssh", "--ssh-config-file", file, "--remove", "--yes"]))
    expect(readFileSync(file, "utf8")).toBe(`${original}\nHost later\n  HostName later.example.com\n`)

    // Without --yes and no one to answer: nothing is written.
    const asked = await user.run(["config-ssh", "--ssh-config-file", file])
    expect(asked.code).toBe(1)
    expect(readFileSync(file, "utf8")).not.toContain("START-WORKBAY")

    // A non-default configuration folder goes into the ProxyCommand.
    const dir = join(tempDir("workbay-cli-cfg-"), "cfg")
    ok(await user.run(["login", server.url, "--token", token, "--global-config", dir]))
    ok(await user.run(["config-ssh", "--ssh-config-file", file, "--yes", "--global-config", dir]))
    expect(readFileSync(file, "utf8")).toContain(` --global-config ${dir} ssh --stdio %h`)
  })

  it("tokens create prints the token once, list shows it, the token works, remove expires it (--delete deletes)", async () => {
    const created = ok(await user.run(["tokens", "create", "--name", "ci-bot", "--lifetime", "1d12h"]))
    const key = created.stdout.trim()
    expect(key).toMatch(/^\w{10}-\w{22}$/)
    expect((await api(server.url, key).get("/users/me")).body.username).toBe("admin")
    const listed = ok(await user.run(["tokens", "ls"]))
    const lines = listed.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^ID\s+NAME\s+LAST USED\s+EXPIRES AT\s+CREATED AT$/)
    const row = lines.find((l) => l.includes("ci-bot"))!
    expect(row.split(/\s+/)[0]).toBe(key.split("-")[0])
    expect(listed.stdout).not.toContain(key)
    const json = JSON.parse(ok(await user.run(["tokens", "list", "-o", "json"])).stdout)
    const record = json.find((t: any) => t.token_name === "ci-bot")
    // 1d12h: 36 hours.
    expect(record.lifetime_seconds).toBe(36 * 3600)
    expect(ok(await user.run(["tokens", "list", "--all"])).stdout.split("\n")[0]).toMatch(/OWNER$/)

    expect(ok(await user.run(["tokens", "remove", "ci-bot"])).stdout).toBe("Token has been expired.\n")
    expect((await api(server.url, key).get("/users/me")).status).toBe(401)
    // By the token itself (its id before the dash), deleted.
    const other = ok(await user.run(["tokens", "create", "-n", "other", "-o", "json"]))
    const made = JSON.parse(other.stdout)
    expect(made).toMatchObject({ token_name: "other", key: expect.stringMatching(/^\w{10}-\w{22}$/) })
    expect(ok(await user.run(["tokens", "rm", made.key, "--delete"])).stdout).toBe("Token has been deleted.\n")
    const after = JSON.parse(ok(await user.run(["tokens", "list", "-o", "json", "--include-expired"])).stdout)
    expect(after.map((t: any) => t.token_name)).toContain("ci-bot")
    expect(after.map((t: any) => t.token_name)).not.toContain("other")

    const unknown = await user.run(["tokens", "remove", "no-such-token"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^error: /)
    expect((await user.run(["tokens", "create", "--lifetime", "soon"])).code).toBe(2)
    // Past the deployment's longest lifetime: the service's validation.
    const long = await user.run(["tokens", "create", "--lifetime", "100y"])
    expect(long.code).toBe(1)
    expect(long.stderr).toMatch(/lifetime/)
  })

  it("users create (a password made and shown once), list, suspend and activate, as an owner", async () => {
    const made = ok(await user.run(["users", "create", "-e", "dev@example.com", "-u", "dev", "-n", "Dev One"]))
    expect(made.stderr).toContain("A new user has been created!")
    const password = /Your password is: (\S+)/.exec(made.stderr)![1]!
    expect(password).toHaveLength(20)
    const dev = cliUser(bundle)
    ok(await dev.run(["login", server.url, "--email", "dev@example.com"], { input: `${password}\n` }))
    expect(ok(await dev.run(["whoami"])).stdout).toContain("authenticated as dev")

    const listed = ok(await user.run(["users", "list"]))
    expect(listed.stdout.split("\n")[0]).toMatch(/^USERNAME\s+EMAIL\s+CREATED AT\s+STATUS$/)
    expect(listed.stdout).toMatch(/^dev\s+dev@example\.com\s+\S+\s+active$/m)
    const json = JSON.parse(ok(await user.run(["users", "ls", "-o", "json", "--search", "dev"])).stdout)
    expect(json.map((u: any) => u.username)).toEqual(["dev"])

    // Not confirmed (no answer): nothing changes.
    const asked = await user.run(["users", "suspend", "dev"])
    expect(asked.code).toBe(1)
    expect(asked.stderr).toContain("Canceled.")
    const suspended = ok(await user.run(["users", "suspend", "dev"], { input: "yes\n" }))
    expect(suspended.stdout).toContain("User dev has been suspended!")
    expect((await dev.run(["whoami"])).code).toBe(1)
    expect(ok(await user.run(["users", "suspend", "dev", "--yes"])).stdout).toContain(
      "User status is already \"suspended\""
    )
    expect(ok(await user.run(["users", "activate", "dev", "--yes"])).stdout).toContain("User dev has been activated!")

    // A member may not: the service's refusal.
    const refused = await dev.run(["users", "create", "-e", "x@example.com", "-u", "x"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^error: /)
    // Bad input: the service's validations, one per field.
    const bad = await user.run(["users", "create", "-e", "not-an-email", "-u", "-bad-"])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^ {2}email: /m)
    expect(bad.stderr).toMatch(/^ {2}username: /m)
    expect((await user.run(["users", "create", "--login-type", "magic", "-e", "a@b.co", "-u", "a"])).code).toBe(2)
    const unknown = await user.run(["users", "suspend", "nobody-here", "--yes"])
    expect(unknown.code).toBe(1)
  })

  it("update: up to date; onto a new active version asking its new required parameter; --parameter; --always-prompt", async () => {
    expect(ok(await user.run(["update", "ws1"])).stdout).toBe("Workspace is up-to-date.\n")
    const parametersOf = async () => {
      const ws = (await api(server.url, token).get("/users/me/workspace/ws1")).body
      const params = (await api(server.url, token).get(`/workspacebuilds/${ws.latest_build.id}/parameters`)).body
      return { ws, values: Object.fromEntries(params.map((p: any) => [p.name, p.value])) }
    }
    const before = await parametersOf()
    const push = async (version: string, extra: string) => {
      const dir = join(tempDir("workbay-cli-upd-"), "box")
      mkdirSync(dir)
      writeFileSync(join(dir, "template.yaml"), TEMPLATE.replace("parameters:\n", `parameters:\n${extra}`))
      ok(await user.run(["templates", "push", dir, "--name", "box", "--version-name", version]))
    }
    await push("v3", "  - name: zone\n    mutable: true\n")
    const updated = ok(await user.run(["update", "ws1"], { input: "z1\n" }))
    expect(updated.stderr + updated.stdout).toContain("zone: ")
    expect(updated.stdout).toContain("The admin/ws1 workspace has been updated.")
    const after = await parametersOf()
    expect(after.ws.outdated).toBe(false)
    expect(after.ws.latest_build).toMatchObject({ template_version_name: "v3", transition: "start", status: "running" })
    expect(after.values).toEqual({ ...before.values, zone: "z1" })

    ok(await user.run(["update", "ws1", "--parameter", "size=5"]))
    expect((await parametersOf()).values).toEqual({ ...before.values, zone: "z1", size: "5" })
    // Every mutable parameter asked: an empty answer keeps its value, another changes it.
    const prompted = ok(await user.run(["update", "ws1", "--always-prompt"], { input: "\n7\n" }))
    expect(prompted.stderr + prompted.stdout).toMatch(/zone \[z1\]: .*size \[5\]: /s)
    expect((await parametersOf()).values).toMatchObject({ zone: "z1", size: "7" })

    // A new required parameter and no answer: a bad command line, nothing built.
    await push("v4", "  - name: rack\n")
    const builds = (await parametersOf()).ws.latest_build.build_number
    const unanswered = await user.run(["update", "ws1"])
    expect(unanswered.code).toBe(2)
    expect(unanswered.stderr).toContain("--parameter rack=<value>")
    expect((await parametersOf()).ws.latest_build.build_number).toBe(builds)
    expect((await user.run(["update", "nope"])).code).toBe(1)
  })

  it("stat: the host's CPU, memory and disk (and the container's), as a table and as JSON; bad flags exit 2", async () => {
    const r = ok(await user.run(["stat", "--sample", "200ms"]))
    const [header, row] = r.stdout.trim().split("\n")
    expect(header).toMatch(/^HOST CPU\s+HOST MEMORY\s+DISK/)
    expect(row).toMatch(/^[\d.]+\/\d+ cores \(\d+%\)\s+[\d.]+\/[\d.]+ GiB \(\d+%\)\s+[\d.]+\/[\d.]+ GiB \(\d+%\)/)
    const json = JSON.parse(ok(await user.run(["stat", "--sample", "100ms", "-o", "json", "--path", tmpdir()])).stdout)
    expect(json.disk_path).toBe(tmpdir())
    for (const key of ["host_cpu", "host_memory", "disk"]) {
      expect(json[key].used).toBeGreaterThanOrEqual(0)
      expect(json[key].used).toBeLessThanOrEqual(json[key].total)
    }
    expect(json.host_cpu.total).toBe(cpus().length)
    expect((await user.run(["stat", "--sample", "soon"])).code).toBe(2)
    expect((await user.run(["stat", "--path", "/no/such/folder"])).code).toBe(2)
  })

  it("delete asks first (no answer: nothing happens, exit 1), then deletes with --yes", async () => {
    const asked = await user.run(["delete", "ws2"])
    expect(asked.code).toBe(1)
    expect(asked.stderr).toContain("error: Canceled.")
    expect((await api(server.url, token).get("/users/me/workspace/ws2")).status).toBe(200)

    const r = ok(await user.run(["delete", "ws2", "--yes"]))
    expect(r.stdout).toContain("The admin/ws2 workspace has been deleted.")
    expect((await api(server.url, token).get("/users/me/workspace/ws2")).status).toBe(404)
    const json = JSON.parse(ok(await user.run(["list", "-o", "json"])).stdout)
    expect(json.map((w: any) => w.name)).toEqual(["ws1"])
  })
})
