/**
 * The agent's SSH server (`ssh` streams, Ssh.ts and Sftp.ts) driven by the real OpenSSH client:
 * each TCP connection to a local listener is carried into an `ssh` stream as the service carries
 * a client's socket (the stream's socket from a real local WebSocket server playing the
 * service's stream endpoint). Commands and their exit status, the host key derived from the
 * token, environment variables, a pty, scp both ways (SFTP), sftp, `ssh -L`, connection reports.
 *
 * Needs OpenSSH's client (`ssh`, `scp`, `sftp`; Debian's openssh-client): without it the tests
 * say "SKIPPED: SSH through the agent" and fail when CI is set.
 */
import { spawn, spawnSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { type AddressInfo, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hostKeyOf } from "../src/HostKey.js"
import { FRAME_BYTES } from "../src/StreamSocket.js"
import { type Harness, startHarness, TOKEN, waitFor } from "./streams.js"

const isCi = () => {
  const ci = process.env.CI
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false"
}
const hasOpenSsh = ["ssh", "scp", "sftp"].every((c) => spawnSync("sh", ["-c", `command -v ${c}`]).status === 0)
if (!hasOpenSsh) {
  console.warn(
    "\nSKIPPED: SSH through the agent — OpenSSH's client is not installed (apt-get install openssh-client)\n"
  )
}

describe.runIf(!hasOpenSsh && isCi())("SSH through the agent under CI", () => {
  it("has OpenSSH's client", () => expect.fail("SKIPPED is a failure under CI: OpenSSH's client is not installed"))
})

const listen = async (server: Server | ReturnType<typeof createHttpServer>) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return (server.address() as AddressInfo).port
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex")

describe.runIf(hasOpenSsh)("the agent's SSH server with OpenSSH's client", () => {
  let h: Harness
  let port: number
  let knownHosts: string
  let work: string
  const listener = createServer()
  let largestFrame = 0

  beforeAll(async () => {
    h = await startHarness()
    // Each TCP connection is one `ssh` stream, joined as the service joins a client's socket.
    listener.on("connection", async (tcp) => {
      tcp.pause()
      const ws = await h.open({ kind: "ssh", remote_address: "198.51.100.9" })
      tcp.on("data", (d: Buffer) => {
        for (let i = 0; i < d.length; i += FRAME_BYTES) ws.send(d.subarray(i, i + FRAME_BYTES))
      })
      ws.on("message", (d: Buffer) => {
        largestFrame = Math.max(largestFrame, d.length)
        tcp.write(d)
      })
      tcp.on("close", () => ws.close())
      tcp.on("error", () => ws.close())
      ws.on("close", () => tcp.end())
      tcp.resume()
    })
    port = await listen(listener)
    work = mkdtempSync(join(tmpdir(), "workbay-agent-ssh-"))
    knownHosts = join(work, "known_hosts")
    // The host key is checked: the one derived from the agent's token.
    writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostKeyOf(TOKEN).publicKey}\n`)
  })
  afterAll(async () => {
    listener.close()
    await h.close()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
  })

  const options = () => [
    "-F",
    "/dev/null",
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    `UserKnownHostsFile=${knownHosts}`,
    "-o",
    "LogLevel=ERROR"
  ]

  /** Runs an OpenSSH command to its end: its exit code and output. */
  const run = (command: string, args: Array<string>, input?: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.on("close", (code) => resolve({ code, stdout, stderr }))
      child.stdin.end(input ?? "")
    })
  const ssh = (args: Array<string>, input?: string) =>
    run("ssh", ["-p", String(port), ...options(), ...args.slice(0, -1), "alice@127.0.0.1", args.at(-1)!], input)

  it("runs commands with their exit status, checked against the host key of the agent's token", async () => {
    const hi = await ssh(["echo hi"])
    expect(hi, hi.stderr).toMatchObject({ code: 0, stdout: "hi\n" })
    const three = await ssh(["exit 3"])
    expect(three.code).toBe(3)
    const stdin = await ssh(["tr a-z A-Z"], "from stdin\n")
    expect(stdin).toMatchObject({ code: 0, stdout: "FROM STDIN\n" })
    const stderr = await ssh(["echo to-stderr >&2; exit 1"])
    expect(stderr).toMatchObject({ code: 1, stderr: "to-stderr\n" })
    expect(largestFrame).toBeLessThanOrEqual(FRAME_BYTES)
  })

  it("offers AES ciphers, not chacha20-poly1305 (ssh2 computes its Poly1305 in WebAssembly)", async () => {
    const chosen = await ssh(["-v", "true"])
    expect(chosen.code, chosen.stderr).toBe(0)
    expect(chosen.stderr).toMatch(/kex: server->client cipher: aes128-ctr /)
    const chacha = await ssh(["-v", "-o", "Ciphers=chacha20-poly1305@openssh.com", "true"])
    expect(chacha.code).toBe(255)
    expect(chacha.stderr).toMatch(/no matching cipher/)
  })

  it("passes the client's variables and the manifest's, in the manifest's directory", async () => {
    const r = await ssh([
      "-o",
      "SetEnv=WORKBAY_FROM_CLIENT=yes",
      "echo \"$WORKBAY_FROM_CLIENT $WORKBAY_TEST_VAR\"; pwd"
    ])
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: `yes from-the-manifest\n${h.directory}\n` })
  })

  it("runs a command under a pty", async () => {
    const r = await ssh(["-tt", "tty; stty size; exit 4"])
    expect(r.code, r.stderr).toBe(4)
    expect(r.stdout).toMatch(/\/dev\/pts\/\d+/)
    // No terminal here: the default size.
    expect(r.stdout).toMatch(/24 80/)
  })

  it("reports each connection as ssh with its exit code", async () => {
    await ssh(["exit 7"])
    await waitFor(() => h.reports.some((r) => r.action === "disconnect" && r.status_code === 7))
    const id = h.reports.find((r) => r.action === "disconnect" && r.status_code === 7)!.id
    const mine = h.reports.filter((r) => r.id === id)
    expect(mine.map((r) => [r.type, r.action, r.ip, r.status_code])).toEqual([
      ["ssh", "connect", "198.51.100.9", undefined],
      ["ssh", "disconnect", "198.51.100.9", 7]
    ])
  })

  it("copies a 10 MiB file both ways with scp (SFTP)", async () => {
    const data = randomBytes(10 * 1024 * 1024)
    const local = join(work, "upload.bin")
    writeFileSync(local, data)
    const remote = join(h.directory, "uploaded.bin")
    const up = await run("scp", ["-P", String(port), ...options(), local, `alice@127.0.0.1:${remote}`])
    expect(up.code, up.stderr).toBe(0)
    expect(sha256(readFileSync(remote))).toBe(sha256(data))

    const back = join(work, "downloaded.bin")
    const down = await run("scp", ["-P", String(port), ...options(), `alice@127.0.0.1:${remote}`, back])
    expect(down.code, down.stderr).toBe(0)
    expect(sha256(readFileSync(back))).toBe(sha256(data))
  })

  it("serves sftp: directories, listing, rename, links, attributes, removal", async () => {
    const base = join(h.directory, "sftp")
    mkdirSync(base)
    writeFileSync(join(work, "small.txt"), "small file\n")
    const batch = join(work, "batch")
    writeFileSync(
      batch,
      [
        `cd ${base}`,
        "mkdir d",
        `put ${join(work, "small.txt")} d/a.txt`,
        "rename d/a.txt d/b.txt",
        "chmod 600 d/b.txt",
        "ln -s b.txt d/link",
        "ls -l d",
        `get d/b.txt ${join(work, "got.txt")}`,
        "mkdir gone",
        "rmdir gone",
        "put " + join(work, "small.txt") + " d/c.txt",
        "rm d/c.txt",
        "pwd"
      ].join("\n") + "\n"
    )
    const r = await run("sftp", ["-P", String(port), ...options(), "-b", batch, "alice@127.0.0.1"])
    expect(r.code, r.stderr).toBe(0)
    expect(readdirSync(join(base, "d")).sort()).toEqual(["b.txt", "link"])
    expect(readlinkSync(join(base, "d/link"))).toBe("b.txt")
    expect(readFileSync(join(work, "got.txt"), "utf8")).toBe("small file\n")
    expect(r.stdout).toMatch(/-rw------- .* b\.txt/)
    expect(r.stdout).toMatch(/l[rwx-]{9} .* link/)
    expect(r.stdout).toContain(`Remote working directory: ${base}`)
  })

  it("forwards a local port to an address the agent reaches (ssh -L)", async () => {
    const app = createHttpServer((req, res) => res.end(`hello from ${req.url}`))
    const appPort = await listen(app)
    // A free port for ssh to listen on.
    const probe = createServer()
    const localPort = await listen(probe)
    await new Promise<void>((r) => probe.close(() => r()))
    const child = spawn("ssh", [
      "-p",
      String(port),
      ...options(),
      "-o",
      "ExitOnForwardFailure=yes",
      "-L",
      `${localPort}:127.0.0.1:${appPort}`,
      "alice@127.0.0.1",
      "echo forwarding; exec cat"
    ], { stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    child.stdout.on("data", (d) => (stdout += d))
    // The remote command runs once the forward listens.
    await waitFor(() => stdout.includes("forwarding"))
    expect(h.streams.counts().ssh).toBeGreaterThanOrEqual(1)
    const answer = await fetch(`http://127.0.0.1:${localPort}/through/the/tunnel`).then((r) => r.text())
    expect(answer).toBe("hello from /through/the/tunnel")
    child.stdin.end()
    await new Promise((r) => child.on("close", r))
    app.close()
  })
})
