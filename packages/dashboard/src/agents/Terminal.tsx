import { FitAddon } from "@xterm/addon-fit"
import { Unicode11Addon } from "@xterm/addon-unicode11"
import { WebLinksAddon } from "@xterm/addon-web-links"
import { Terminal } from "@xterm/xterm"
import "@xterm/xterm/css/xterm.css"
import { useEffect, useRef, useState } from "react"
import { Link, Navigate, useParams } from "react-router"
import { webSocketUrl } from "../api/client.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { agentsOf } from "../workspaces/api.ts"
import { ownerOf, useWorkspace, workspacePath } from "../workspaces/hooks.ts"
import { clipboardKeys } from "./clipboardKeys.ts"

/**
 * The reconnect id of this page's terminal session: the URL's `?reconnect=`, or a new one written
 * there (replacing the history entry), so a reload re-attaches to the same shell.
 */
const reconnectId = () => {
  const url = new URL(location.href)
  const known = url.searchParams.get("reconnect")
  if (known !== null && /^[0-9a-f-]{36}$/i.test(known)) return known
  const id = crypto.randomUUID()
  url.searchParams.set("reconnect", id)
  history.replaceState(history.state, "", url)
  return id
}

/** The same terminal page with a new session: the URL without its reconnect id, loaded again. */
const newSession = () => {
  const url = new URL(location.href)
  url.searchParams.delete("reconnect")
  location.assign(url)
}

/** How many times in a row a dropped terminal is connected again before it gives up (about 2 minutes). */
const MAX_ATTEMPTS = 12

/**
 * What the terminal runs, from the URL as the described system's dashboard takes it: `?command=`
 * (run instead of the login shell; the terminal ends when it exits), `?container=` and
 * `?container_user=` (a container on the agent's machine, for agents that can enter one). Passed to
 * the `pty` route as they are; the agent decides.
 */
const launchOf = (params: URLSearchParams) => ({
  command: params.get("command") ?? "",
  container: params.get("container") ?? "",
  containerUser: params.get("container_user") ?? ""
})

/** `/@owner/workspace.agent/terminal`: the agent's terminal in xterm, over the `pty` route. */
export const TerminalPage = () => {
  const params = useParams()
  const owner = ownerOf(params.owner)
  const target = params.target ?? ""
  const dot = target.indexOf(".")
  if (owner === undefined || dot <= 0 || dot === target.length - 1) return <Navigate to="/workspaces" replace />
  return <TerminalView owner={owner} workspace={target.slice(0, dot)} agent={target.slice(dot + 1)} />
}

const TerminalView = ({ owner, workspace, agent }: { owner: string; workspace: string; agent: string }) => {
  const w = useWorkspace(owner, workspace)
  const [reconnect] = useState(reconnectId)
  const [{ command, container, containerUser }] = useState(() => launchOf(new URLSearchParams(location.search)))
  const found = w.data === undefined ? undefined : agentsOf(w.data).find((a) => a.name === agent)
  const agentId = found?.id
  const [status, setStatus] = useState("Connecting…")
  const [ended, setEnded] = useState(false)
  const host = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = host.current
    if (agentId === undefined || element === null) return
    const terminal = new Terminal({
      // The unicode11 addon registers its width table through xterm's proposed API.
      allowProposedApi: true,
      screenReaderMode: true,
      cursorBlink: true,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      fontSize: 14,
      scrollback: 5000
    })
    const fit = new FitAddon()
    terminal.loadAddon(fit)
    // Wide characters and emoji two columns wide, as the shell's programs count them (wcwidth).
    terminal.loadAddon(new Unicode11Addon())
    terminal.unicode.activeVersion = "11"
    // URLs in the output open in a new window (without an opener) when clicked.
    terminal.loadAddon(new WebLinksAddon())
    terminal.attachCustomKeyEventHandler(clipboardKeys(terminal))
    terminal.open(element)
    fit.fit()
    // One socket at a time, made again with the same reconnect id when it drops (the agent keeps
    // the shell and replays its recent output), after 1, 2, 4, ... up to 15 seconds; a reload starts over.
    let socket: WebSocket | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let attempt = 0
    let stopped = false
    const send = (frame: { data?: string; height?: number; width?: number }) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame))
    }
    const connect = () => {
      const query = new URLSearchParams({
        reconnect,
        width: String(terminal.cols),
        height: String(terminal.rows),
        ...(command === "" ? {} : { command }),
        ...(container === "" ? {} : { container }),
        ...(containerUser === "" ? {} : { container_user: containerUser })
      })
      const current = new WebSocket(webSocketUrl(`/workspaceagents/${encodeURIComponent(agentId)}/pty?${query}`))
      socket = current
      current.binaryType = "arraybuffer"
      let fresh = attempt > 0
      current.onopen = () => {
        attempt = 0
        setStatus("Connected")
        terminal.focus()
      }
      current.onmessage = (event) => {
        // After a reconnect the agent replays the screen: start from a clean one.
        if (fresh) {
          fresh = false
          terminal.reset()
        }
        terminal.write(
          event.data instanceof ArrayBuffer ? new Uint8Array(event.data) : String(event.data)
        )
      }
      current.onclose = (event) => {
        if (stopped) return
        const why = event.reason !== "" ? event.reason : `the connection closed (${event.code})`
        // A normal closure is the agent saying the session ended (the shell or command exited):
        // connecting again would only be told the same.
        if (event.code === 1000) {
          setEnded(true)
          setStatus(`Ended: ${why}`)
          return
        }
        if (attempt >= MAX_ATTEMPTS) {
          setStatus(`Disconnected: ${why}`)
          return
        }
        const delay = Math.min(15_000, 1000 * 2 ** attempt)
        attempt++
        setStatus(`Reconnecting… (${why})`)
        retry = setTimeout(connect, delay)
      }
    }
    connect()
    const input = terminal.onData((data) => send({ data }))
    const resize = terminal.onResize(({ cols, rows }) => send({ height: rows, width: cols }))
    const observer = new ResizeObserver(() => fit.fit())
    observer.observe(element)
    return () => {
      stopped = true
      if (retry !== undefined) clearTimeout(retry)
      observer.disconnect()
      input.dispose()
      resize.dispose()
      if (socket !== undefined) {
        socket.onclose = null
        socket.close(1000)
      }
      terminal.dispose()
    }
  }, [agentId, reconnect, command, container, containerUser])

  return (
    <>
      <p>
        <Link to={workspacePath(owner, workspace)}>Back to {workspace}</Link>
      </p>
      <h1>
        Terminal: {workspace}.{agent}
        {container === "" ? "" : ` (container ${container})`}
      </h1>
      {command === "" ? null : (
        <p className="terminal-command">
          Running <code>{command}</code>
        </p>
      )}
      <ErrorMessage error={w.error} />
      {w.data !== undefined && agentId === undefined
        ? <p role="alert">The workspace has no agent named “{agent}”.</p>
        : (
          <p role="status" aria-label="Terminal status" className="terminal-status">
            {agentId === undefined ? "Loading…" : status}
          </p>
        )}
      {found !== undefined && found.troubleshooting_url !== "" &&
          (found.status !== "connected" || /^(Reconnecting|Disconnected)/.test(status))
        ? (
          <p>
            <a href={found.troubleshooting_url} target="_blank" rel="noreferrer">
              Troubleshooting {agent}
            </a>{" "}
            (the template's guide for an agent that does not connect)
          </p>
        )
        : null}
      {ended
        ? (
          <p>
            <button type="button" onClick={newSession}>
              Start a new session
            </button>
          </p>
        )
        : null}
      <div className="terminal" ref={host} />
    </>
  )
}
