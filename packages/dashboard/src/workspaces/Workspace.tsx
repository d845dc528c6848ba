/**
 * One workspace (`/@owner/workspace`), kept live by its watch: its facts and status, the actions
 * (start, stop, restart, update when outdated (asking the new version's parameters the workspace
 * cannot answer), cancel while a build is under way, delete), the latest build's live log, its
 * resources with their agents and apps, the build's timings, the build history, its parameters,
 * the schedule, sharing, port shares and settings (name, automatic updates, dormancy), each in a
 * file of its own.
 */
import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { Link, Navigate, useParams } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { JobLogs } from "../ui/JobLogs.tsx"
import { agentsOf, settled, type Workspace, workspacesApi as api } from "./api.ts"
import { capitalized, ownerOf, useWorkspace } from "./hooks.ts"
import { WorkspaceBuilds, WorkspaceTimings } from "./WorkspaceBuilds.tsx"
import { UpdateButton, WorkspaceParameters } from "./WorkspaceParameters.tsx"
import { WorkspacePorts } from "./WorkspacePorts.tsx"
import { WorkspaceResources } from "./WorkspaceResources.tsx"
import { WorkspaceSchedule } from "./WorkspaceSchedule.tsx"
import { WorkspaceSettings } from "./WorkspaceSettings.tsx"
import { WorkspaceSharing } from "./WorkspaceSharing.tsx"
import "./styles.css"

const UNDER_WAY = ["pending", "starting", "stopping", "deleting", "canceling"]

/** The page of `/@owner/workspace`. */
export const WorkspacePage = () => {
  const params = useParams()
  const owner = ownerOf(params.owner)
  if (owner === undefined || params.workspace === undefined) return <Navigate to="/workspaces" replace />
  return <WorkspaceView owner={owner} name={params.workspace} />
}

type Action = "start" | "stop" | "restart" | "delete" | "cancel"

/** What an action asks of the service. Restart is a stop build, then (once it settled) a start build. */
const perform = async (w: Workspace, action: Action) => {
  switch (action) {
    case "start":
    case "stop":
    case "delete":
      return api.build(w.id, action)
    case "cancel":
      return api.cancel(w.latest_build.id)
    case "restart": {
      const stop = await api.build(w.id, "stop")
      const after = await settled(w.id, stop.id)
      if (after.latest_build.status !== "stopped") {
        throw new Error(`The stop build ended ${after.latest_build.status}: not started again.`)
      }
      return api.build(w.id, "start")
    }
  }
}

const WorkspaceView = ({ owner, name }: { owner: string; name: string }) => {
  const workspace = useWorkspace(owner, name)
  const act = useMutation({ mutationFn: ({ w, action }: { w: Workspace; action: Action }) => perform(w, action) })
  const [updateError, setUpdateError] = useState<Error | null>(null)
  if (workspace.isPending) return <p role="status">Loading the workspace…</p>
  if (workspace.isError) {
    return (
      <>
        <h1>{name}</h1>
        <ErrorMessage error={workspace.error} />
        <p>
          <Link to="/workspaces">All workspaces</Link>
        </p>
      </>
    )
  }
  const w = workspace.data
  const build = w.latest_build
  const status = build.status
  const deleted = status === "deleted"
  const busy = act.isPending || UNDER_WAY.includes(status)
  const run = (action: Action) => act.mutate({ w, action })
  const jobUnderWay = build.job.status === "pending" || build.job.status === "running"
  return (
    <div className="workspace">
      <p>
        <Link to="/workspaces">All workspaces</Link>
      </p>
      <h1>{w.name}</h1>
      <dl className="facts">
        <dt>Owner</dt>
        <dd>{w.owner_name}</dd>
        <dt>Template</dt>
        <dd>
          {w.template_display_name !== "" ? w.template_display_name : w.template_name}{" "}
          <span className="hint">(version {build.template_version_name})</span>
        </dd>
        <dt>Status</dt>
        <dd>
          <span role="status" aria-label="Workspace status" className={`status status-${status}`}>
            {capitalized(status)}
          </span>
        </dd>
        {w.outdated
          ? (
            <>
              <dt>Version</dt>
              <dd>
                <span role="status" aria-label="Template version">Outdated: a newer version is active</span>
              </dd>
            </>
          )
          : null}
        {build.daily_cost > 0
          ? (
            <>
              <dt>Daily cost</dt>
              <dd>{build.daily_cost} credits</dd>
            </>
          )
          : null}
      </dl>
      {deleted ? null : (
        <div className="actions" role="group" aria-label="Workspace actions">
          <button type="button" disabled={busy || status === "running"} onClick={() => run("start")}>Start</button>
          <button type="button" disabled={busy || status === "stopped"} onClick={() => run("stop")}>Stop</button>
          <button type="button" disabled={busy || status !== "running"} onClick={() => run("restart")}>Restart</button>
          {w.outdated
            ? <UpdateButton workspace={w} disabled={busy} onError={setUpdateError} />
            : null}
          {jobUnderWay
            ? (
              <button type="button" className="secondary" onClick={() => run("cancel")}>
                Cancel build
              </button>
            )
            : null}
          <ConfirmButton
            label="Delete"
            title={`Delete ${w.name}?`}
            confirm="Delete workspace"
            danger
            disabled={busy}
            typeToConfirm={w.name}
            onConfirm={() => run("delete")}
          >
            <p>
              The workspace <strong>{w.name}</strong> and its resources will be deleted. This cannot be undone.
            </p>
          </ConfirmButton>
        </div>
      )}
      {act.isPending && act.variables?.action === "restart"
        ? <p role="status" aria-label="Restart">Restarting: stopping, then starting…</p>
        : null}
      <ErrorMessage error={act.error} />
      <ErrorMessage error={updateError} />
      {build.job.error !== undefined && build.job.error !== ""
        ? <p role="alert" className="error">The build failed: {build.job.error}</p>
        : null}

      <section aria-labelledby="logs-heading">
        <h2 id="logs-heading">Build logs</h2>
        <p className="hint">
          Build #{build.build_number}, {build.transition}, {capitalized(build.job.status)}
        </p>
        <JobLogs path={`/workspacebuilds/${build.id}/logs`} label="Latest build's logs" />
      </section>

      <WorkspaceResources workspace={w} />
      <WorkspaceTimings build={build} />
      <WorkspaceBuilds workspace={w} />
      {deleted ? null : (
        <>
          <WorkspaceParameters workspace={w} disabled={busy} />
          <WorkspaceSchedule workspace={w} />
          <WorkspaceSharing workspace={w} />
          <WorkspacePorts workspace={w} agents={agentsOf(w).map((a) => a.name)} />
          <WorkspaceSettings key={w.id} workspace={w} />
        </>
      )}
    </div>
  )
}
