/**
 * The agent's SSH server (docs/agents.md, "SSH") on `ssh` streams: ssh2's server protocol over
 * the stream's socket, as the user the agent runs as. Any user name is accepted with no
 * credential (the service's `ssh` check is the authorization). The host key is Ed25519 derived
 * from the agent's token. Sessions: a shell or `exec` (in `sh -c`), under a pty (node-pty, its
 * size and changes) or with pipes, with the environment the client sends on top of the
 * manifest's and the agent's, their exit status or signal; the `sftp` subsystem; and
 * `direct-tcpip` (`ssh -L`) to any address the agent reaches. Each connection is reported as an
 * `ssh` connection with its last session's exit code.
 */
import type { IPty } from "@lydell/node-pty"
import { spawn as spawnChild } from "node:child_process"
import { connect as tcpConnect } from "node:net"
import { constants as osConstants, homedir } from "node:os"
import { pipeline } from "node:stream"
import ssh2, {
  type CipherAlgorithm,
  type Connection,
  type ParsedKey,
  type PseudoTtyInfo,
  type ServerChannel
} from "ssh2"
import { hostKeyOf } from "./HostKey.js"
import { loadNodePty } from "./Pty.js"
import {
  type ConnectionReport,
  connectionReport,
  loginShell,
  sessionDirectory,
  sessionEnv,
  type SessionEnvironment,
  type StreamOpen
} from "./Session.js"
import { serveSftp } from "./Sftp.js"
import { socketDuplex, type StreamSocket } from "./StreamSocket.js"

/**
 * The ciphers the server offers: AES (GCM, then CTR with an HMAC), done by Node's OpenSSL, and
 * not chacha20-poly1305. OpenSSH's client asks for chacha20-poly1305 first, and ssh2 without its
 * optional compiled binding computes Poly1305 in WebAssembly; OpenSSH then takes aes128-ctr
 * (docs/agents.md, "SSH").
 */
const CIPHERS: Array<CipherAlgorithm> = [
  "aes128-gcm@openssh.com",
  "aes256-gcm@openssh.com",
  "aes128-ctr",
  "aes192-ctr",
  "aes256-ctr"
]

export interface SshServerOptions {
  /** The agent's token now (the host key follows it). */
  readonly token: () => string
  readonly environment: () => Promise<SessionEnvironment>
  readonly report: (report: ConnectionReport) => void
  readonly log: (line: string) => void
}

const signalName = (signal: number | string): string => {
  if (typeof signal === "string") return signal.replace(/^SIG/, "")
  const name = Object.entries(osConstants.signals).find(([, n]) => n === signal)?.[0]
  return (name ?? "KILL").replace(/^SIG/, "")
}

/** What a session channel runs: resized with its pty, signalled, ended when the client leaves. */
interface Running {
  readonly resize: (cols: number, rows: number) => void
  readonly signal: (name: string) => void
  readonly end: () => void
}

// ssh2 is CommonJS: named imports of its values fail where it stays external to an ES module bundle.
const { Server, utils } = ssh2

export class SshServer {
  private key: { readonly token: string; readonly key: ParsedKey } | undefined
  private readonly connections = new Set<Connection>()

  constructor(private readonly options: SshServerOptions) {}

  /** The SSH connections open now (the agent's `session_count_ssh`). */
  get size(): number {
    return this.connections.size
  }

  /** The host key's public line (`ssh-ed25519 AAAA...`), for a known_hosts entry. */
  publicKey(): string {
    return `ssh-ed25519 ${this.hostKey().getPublicSSH().toString("base64")}`
  }

  private hostKey(): ParsedKey {
    const token = this.options.token()
    if (this.key?.token !== token) {
      const parsed = utils.parseKey(hostKeyOf(token).privateKey)
      if (parsed instanceof Error) throw parsed
      this.key = { token, key: Array.isArray(parsed) ? parsed[0] : parsed }
    }
    return this.key.key
  }

  /** Serves SSH on the open `socket` of an `ssh` stream until either side ends it. */
  serve(socket: StreamSocket, open: StreamOpen): void {
    const duplex = socketDuplex(socket)
    const server = new Server(
      { hostKeys: [{ key: this.hostKey() }], algorithms: { cipher: CIPHERS } },
      (client) => this.connection(client, open, socket)
    )
    server.injectSocket(duplex as any)
    if (socket.ws.isPaused) socket.ws.resume()
  }

  /** Ends every connection (the agent stops). */
  close(): void {
    for (const c of this.connections) c.end()
  }

  private connection(client: Connection, open: StreamOpen, socket: StreamSocket) {
    this.connections.add(client)
    this.options.report(connectionReport(open, "ssh"))
    let exitCode = 0
    let error: string | undefined
    const running = new Set<Running>()
    client.on("authentication", (ctx) => ctx.accept())
    client.on("error", (e) => void (error ??= e.message))
    client.on("close", () => {
      this.connections.delete(client)
      for (const r of running) r.end()
      this.options.report(
        connectionReport(open, "ssh", { code: exitCode, reason: error ?? "The client disconnected." })
      )
      socket.close(1000)
    })
    client.on("ready", () => {
      client.on("session", (acceptSession) => {
        const session = acceptSession()
        const env: Record<string, string> = {}
        let pty: PseudoTtyInfo | undefined
        let current: Running | undefined
        const start = async (channel: ServerChannel, command: string | undefined) => {
          const environment = await this.options.environment()
          const cwd = sessionDirectory(environment)
          const done = (code: number | undefined, signal: number | string | undefined) => {
            if (current !== undefined) running.delete(current)
            if (signal !== undefined && signal !== null && signal !== 0) {
              exitCode = 128 + (typeof signal === "number" ? signal : (osConstants.signals as any)[signal] ?? 0)
              channel.exit(signalName(signal), false, "")
            } else {
              exitCode = code ?? 0
              channel.exit(exitCode)
            }
            channel.end()
          }
          try {
            const started = pty === undefined
              ? this.pipes(channel, command, sessionEnv(environment, env), cwd, done)
              : await this.terminal(channel, command, pty, sessionEnv(environment, env), cwd, done)
            current = started
            running.add(started)
            // The client closing the channel ends what still runs in it.
            channel.on("close", () => void (running.delete(started) && started.end()))
          } catch (e) {
            channel.stderr.write(`${e instanceof Error ? e.message : String(e)}\r\n`)
            done(1, undefined)
          }
        }
        session.on("pty", (accept, _reject, info) => {
          pty = info
          accept?.()
        })
        session.on("window-change", (accept, _reject, info) => {
          if (pty !== undefined) pty = { ...pty, cols: info.cols, rows: info.rows }
          current?.resize(info.cols, info.rows)
          accept?.()
        })
        session.on("env", (accept, _reject, info) => {
          env[info.key] = info.val
          accept?.()
        })
        session.on("signal", (accept, _reject, info) => {
          current?.signal(info.name)
          accept?.()
        })
        session.on("shell", (accept) => void start(accept(), undefined))
        session.on("exec", (accept, _reject, info) => void start(accept(), info.command))
        session.on("sftp", (accept) => serveSftp(accept(), homedir()))
      })
      client.on("tcpip", (accept, reject, info) => {
        const tcp = tcpConnect({ host: info.destIP, port: info.destPort })
        tcp.once("error", () => reject())
        tcp.once("connect", () => {
          tcp.removeAllListeners("error")
          const channel = accept()
          pipeline(tcp, channel, () => tcp.destroy())
          pipeline(channel, tcp, () => tcp.destroy())
        })
      })
    })
  }

  /** Runs the shell (or `sh -c command`) with pipes: stdout, stderr, stdin. */
  private pipes(
    channel: ServerChannel,
    command: string | undefined,
    env: Record<string, string>,
    cwd: string,
    done: (code: number | undefined, signal: string | undefined) => void
  ): Running {
    const [file, args] = command === undefined ? [loginShell(), ["-l"]] : ["sh", ["-c", command]]
    const child = spawnChild(file, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true })
    child.stdout.pipe(channel, { end: false })
    child.stderr.pipe(channel.stderr, { end: false })
    channel.pipe(child.stdin)
    child.stdin.on("error", () => {})
    child.on("error", (e) => {
      channel.stderr.write(`${e.message}\n`)
      done(127, undefined)
    })
    child.on("close", (code, signal) => done(code ?? undefined, signal ?? undefined))
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // Gone already.
      }
    }
    return {
      resize: () => {},
      signal: (name) => kill(`SIG${name}` as NodeJS.Signals),
      end: () => kill("SIGHUP")
    }
  }

  /** Runs the shell (or `sh -c command`) under a pty of the client's size and terminal type. */
  private async terminal(
    channel: ServerChannel,
    command: string | undefined,
    info: PseudoTtyInfo,
    env: Record<string, string>,
    cwd: string,
    done: (code: number | undefined, signal: number | undefined) => void
  ): Promise<Running> {
    const { spawn } = await loadNodePty()
    const term = info.term === "" || info.term === undefined ? "xterm-256color" : info.term
    const [file, args] = command === undefined ? [loginShell(), ["-l"]] : ["sh", ["-c", command]]
    const pty: IPty = spawn(file, args, {
      name: term,
      cols: Math.max(1, info.cols || 80),
      rows: Math.max(1, info.rows || 24),
      cwd,
      env: { ...env, TERM: term },
      encoding: null
    })
    let paused = false
    pty.onData((data: string | Buffer) => {
      if (!channel.write(data) && !paused) {
        paused = true
        pty.pause()
      }
    })
    channel.on("drain", () => {
      if (paused) {
        paused = false
        pty.resume()
      }
    })
    channel.on("data", (data: Buffer) => pty.write(data as unknown as string))
    pty.onExit(({ exitCode, signal }) => done(exitCode, signal))
    return {
      resize: (cols, rows) => {
        try {
          pty.resize(Math.max(1, cols), Math.max(1, rows))
        } catch {
          // Ending.
        }
      },
      signal: (name) => {
        try {
          pty.kill(`SIG${name}`)
        } catch {
          // Gone already.
        }
      },
      end: () => {
        try {
          pty.kill()
        } catch {
          // Gone already.
        }
      }
    }
  }
}
