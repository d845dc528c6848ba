/**
 * A version's own page (`/templates/:template/versions/:version`, the described system's address):
 * the version's facts (who made it, when, its message, its import's outcome, active or archived)
 * with promote and archive, its import log (`GET /templateversions/{id}/logs`), the resources it
 * declares (`GET /templateversions/{id}/resources`), and a dry run: `POST
 * /templateversions/{id}/dry-run` with the parameters' defaults, its log followed live
 * (`.../dry-run/{job}/logs`), then its outcome and the resources a workspace of it would have
 * (`.../dry-run/{job}/resources`).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { JobLogs } from "../ui/JobLogs.tsx"
import { Time } from "../ui/Time.tsx"
import { type TemplateResource, templatesApi as api } from "./api.ts"
import { templatePath } from "./paths.ts"
import { dryRunQuery, dryRunResourcesQuery, resourcesQuery, templateKeys, versionByNameQuery } from "./queries.ts"
import { useTemplate } from "./Template.tsx"
import { jobStatus, useVersionActions } from "./Versions.tsx"

export const VersionPage = () => {
  const t = useTemplate()
  const { version: name = "", organization } = useParams()
  const version = useQuery(versionByNameQuery(t.id, name))
  const queryClient = useQueryClient()
  const actions = useVersionActions(t)
  const v = version.data
  const resources = useQuery({
    ...resourcesQuery(v?.id),
    enabled: v !== undefined && v.job.status === "succeeded"
  })
  const versionsPath = `${templatePath(t.name, organization)}/versions`
  if (version.isPending) return <p role="status">Loading the version…</p>
  if (v === undefined) {
    return (
      <>
        <h2>Version {name}</h2>
        <ErrorMessage error={version.error} />
        <p>
          <Link to={versionsPath}>All versions</Link>
        </p>
      </>
    )
  }
  const active = v.id === t.active_version_id
  const refresh = () => queryClient.invalidateQueries({ queryKey: templateKeys.versions(t.id) })
  return (
    <>
      <p>
        <Link to={versionsPath}>All versions</Link>
      </p>
      <h2>Version {v.name}</h2>
      <dl className="facts">
        <div className="contents">
          <dt>Created by</dt>
          <dd>{v.created_by.username}</dd>
        </div>
        <div className="contents">
          <dt>Created</dt>
          <dd>
            <Time value={v.created_at} />
          </dd>
        </div>
        <div className="contents">
          <dt>Import</dt>
          <dd>{jobStatus(v)}</dd>
        </div>
        <div className="contents">
          <dt>State</dt>
          <dd>{active ? "Active" : v.archived ? "Archived" : "Not active"}</dd>
        </div>
        {v.message === "" ? null : (
          <div className="contents">
            <dt>Message</dt>
            <dd>{v.message}</dd>
          </div>
        )}
      </dl>
      {v.job.error === undefined || v.job.error === "" ? null : <p className="error">{v.job.error}</p>}
      <div className="row-actions">
        {!active && !v.archived && v.job.status === "succeeded"
          ? (
            <button type="button" disabled={actions.busy} onClick={() => actions.promote(v.id)}>
              Promote version {v.name}
            </button>
          )
          : null}
        {active ? null : (
          <button
            type="button"
            className="secondary"
            disabled={actions.busy}
            onClick={() => actions.archive(v.id, !v.archived)}
          >
            {v.archived ? "Unarchive" : "Archive"} version {v.name}
          </button>
        )}
      </div>
      <ErrorMessage error={actions.error} />

      <section aria-labelledby="version-resources">
        <h3 id="version-resources">Resources</h3>
        <ErrorMessage error={resources.error} />
        {v.job.status !== "succeeded"
          ? <p className="empty">The import did not succeed: no resources.</p>
          : resources.data === undefined
          ? <p role="status">Loading the resources…</p>
          : <Resources resources={resources.data} label={`Resources of version ${v.name}`} />}
      </section>

      <section aria-labelledby="version-log">
        <h3 id="version-log">Import log</h3>
        <JobLogs path={`/templateversions/${v.id}/logs`} label={`Import log of version ${v.name}`} onDone={refresh} />
      </section>

      {v.job.status === "succeeded" ? <DryRun versionId={v.id} versionName={v.name} /> : null}
    </>
  )
}

/** The resources a version declares (or a dry run made), hidden ones left out, with their agents and apps. */
const Resources = ({ resources, label }: { resources: ReadonlyArray<TemplateResource>; label: string }) => {
  const shown = resources.filter((r) => !r.hide)
  if (shown.length === 0) return <p className="empty">No resources.</p>
  return (
    <table>
      <caption className="visually-hidden">{label}</caption>
      <thead>
        <tr>
          <th scope="col">Resource</th>
          <th scope="col">Type</th>
          <th scope="col">Made at</th>
          <th scope="col">Agents</th>
          <th scope="col">Daily cost</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((r) => (
          <tr key={`${r.type}.${r.name}.${r.workspace_transition}`}>
            <th scope="row">{r.name}</th>
            <td>{r.type}</td>
            <td>{r.workspace_transition}</td>
            <td>
              {(r.agents ?? []).length === 0 ? "—" : (r.agents ?? []).map((a) => (
                <span key={a.name} className="owner">
                  {a.name} ({a.operating_system}/{a.architecture})
                  {a.apps.length === 0 ? "" : `: ${a.apps.map((app) => app.display_name || app.slug).join(", ")}`}
                </span>
              ))}
            </td>
            <td>{r.daily_cost}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A dry run of the version: started on demand, its log live, then its outcome and resources. */
const DryRun = ({ versionId, versionName }: { versionId: string; versionName: string }) => {
  const [ended, setEnded] = useState(false)
  const start = useMutation({
    mutationFn: () => api.dryRun(versionId),
    onMutate: () => setEnded(false)
  })
  const jobId = start.data?.id
  const job = useQuery({
    ...dryRunQuery(versionId, jobId),
    enabled: jobId !== undefined && ended
  })
  const resources = useQuery({
    ...dryRunResourcesQuery(versionId, jobId),
    enabled: jobId !== undefined && job.data?.status === "succeeded"
  })
  const status = job.data?.status
  return (
    <section aria-labelledby="dry-run">
      <h3 id="dry-run">Dry run</h3>
      <p>Plans a workspace of this version with its parameters' defaults, without making anything.</p>
      <button
        type="button"
        disabled={start.isPending || (jobId !== undefined && !ended)}
        onClick={() => start.mutate()}
      >
        {jobId === undefined ? "Start a dry run" : "Start another dry run"}
      </button>
      <ErrorMessage error={start.error ?? job.error ?? resources.error} />
      {jobId === undefined ? null : (
        <>
          <p role="status" aria-label="Dry run status">
            {!ended || status === undefined ? "Running…" : status.charAt(0).toUpperCase() + status.slice(1)}
          </p>
          {job.data?.error === undefined || job.data.error === "" ? null : <p className="error">{job.data.error}</p>}
          <JobLogs
            key={jobId}
            path={`/templateversions/${versionId}/dry-run/${jobId}/logs`}
            label={`Dry run log of version ${versionName}`}
            onDone={() => setEnded(true)}
          />
          {resources.data === undefined
            ? null
            : <Resources resources={resources.data} label={`Resources of the dry run of version ${versionName}`} />}
        </>
      )}
    </section>
  )
}
