/**
 * "Open in VS Code": VS Code Desktop on the agent through its Remote-SSH extension, the link the
 * `workbay open vscode` command opens (`vscode://vscode-remote/ssh-remote+<host><dir>`, the host
 * `workbay config-ssh` writes: `workbay.<workspace>`, `.<agent>` after it when the workspace has
 * several agents; the agent's directory). The link holds no token: the editor's SSH goes through
 * `workbay ssh --stdio` with the command's own login, so the one-time set-up of a computer is shown
 * beside it: the `workbay` command downloaded from this deployment, logged in, `config-ssh`. The
 * hosts config-ssh writes are the person's own workspaces', so the action is offered on those only.
 */
import { useId } from "react"
import type { Workspace, WorkspaceAgent } from "./api.ts"
import { agentsOf } from "./api.ts"

/** The Remote-SSH link of `agent`'s machine at its directory. */
export const vscodeHref = (w: Workspace, agent: WorkspaceAgent): string => {
  const host = `workbay.${w.name}${agentsOf(w).length > 1 ? `.${agent.name}` : ""}`
  const dir = agent.expanded_directory || agent.directory || ""
  return `vscode://vscode-remote/ssh-remote+${encodeURIComponent(host)}${dir === "" ? "" : encodeURI(dir)}`
}

export const OpenInVsCode = ({ workspace: w, agent }: { workspace: Workspace; agent: WorkspaceAgent }) => {
  const setupId = useId()
  const origin = window.location.origin
  return (
    <div className="vscode" role="group" aria-label={`VS Code on ${agent.name}`}>
      <a className="button" href={vscodeHref(w, agent)} aria-describedby={setupId}>
        Open in VS Code
      </a>
      <details id={setupId}>
        <summary>First time on this computer?</summary>
        <p>
          VS Code reaches the workspace over SSH through the <code>workbay</code>{" "}
          command (with VS Code's Remote - SSH extension). Once per computer, in a terminal:
        </p>
        <pre aria-label="One-time set-up">{
          `curl -fsSLO ${origin}/bin/workbay-linux-amd64 && curl -fsSL ${origin}/bin/workbay-linux-amd64.sha256 | sha256sum -c
install -D -m 755 workbay-linux-amd64 ~/.local/bin/workbay   # linux-arm64: workbay-linux-arm64
workbay login ${origin}
workbay config-ssh --yes`
        }</pre>
      </details>
    </div>
  )
}
