/**
 * A template's versions (`/templates/:template/versions`): `GET /templates/{id}/versions`
 * (archived ones too), promote (`PATCH /templates/{id}/versions` `{id}`), archive and unarchive
 * (`POST /templateversions/{id}/archive|unarchive`), and a new version uploaded as an archive,
 * its import followed live, then promoted.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect } from "react"
import { Link, useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { type Template, templatesApi as api, type TemplateVersion } from "./api.ts"
import { UploadArchive } from "./CreateTemplate.tsx"
import { ImportProgress, useImport } from "./ImportVersion.tsx"
import { activeVersionChanged, templateKeys, versionsQuery } from "./queries.ts"
import { useTemplate } from "./Template.tsx"

export const jobStatus = (v: TemplateVersion) => v.job.status.charAt(0).toUpperCase() + v.job.status.slice(1)

export const VersionsPage = () => {
  const t = useTemplate()
  const versions = useQuery(versionsQuery(t.id))
  const actions = useVersionActions(t)
  return (
    <>
      <h2>Versions</h2>
      <ErrorMessage error={versions.error} />
      <ErrorMessage error={actions.error} />
      {versions.isPending
        ? <p role="status">Loading the versions…</p>
        : (
          <table>
            <caption className="visually-hidden">Versions of {t.name}</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Import</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {[...(versions.data ?? [])].reverse().map((v) => {
                const active = v.id === t.active_version_id
                return (
                  <tr key={v.id}>
                    <th scope="row">
                      <Link to={encodeURIComponent(v.name)}>{v.name}</Link>
                    </th>
                    <td>{v.created_by.username}</td>
                    <td>
                      <Time value={v.created_at} />
                    </td>
                    <td>{jobStatus(v)}</td>
                    <td>{active ? "Active" : v.archived ? "Archived" : "—"}</td>
                    <td>
                      <div className="row-actions">
                        {!active && !v.archived && v.job.status === "succeeded"
                          ? (
                            <button
                              type="button"
                              aria-label={`Promote ${v.name}`}
                              disabled={actions.busy}
                              onClick={() => actions.promote(v.id)}
                            >
                              Promote
                            </button>
                          )
                          : null}
                        {active ? null : (
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`${v.archived ? "Unarchive" : "Archive"} ${v.name}`}
                            disabled={actions.busy}
                            onClick={() => actions.archive(v.id, !v.archived)}
                          >
                            {v.archived ? "Unarchive" : "Archive"}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      <NewVersion template={t} onPromote={actions.promote} busy={actions.busy} />
    </>
  )
}

export const useVersionActions = (t: Template) => {
  const queryClient = useQueryClient()
  const { organization } = useParams()
  const refresh = () => activeVersionChanged(queryClient, t, organization)
  const promote = useMutation({ mutationFn: (id: string) => api.promote(t.id, id), onSuccess: refresh })
  const archive = useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) => api.archive(id, archived),
    onSuccess: refresh
  })
  return {
    busy: promote.isPending || archive.isPending,
    error: promote.error ?? archive.error,
    promote: (id: string) => {
      archive.reset()
      promote.mutate(id)
    },
    archive: (id: string, archived: boolean) => {
      promote.reset()
      archive.mutate({ id, archived })
    }
  }
}

/** Uploads an archive as a new version of `template`, follows its import, then offers to promote it. */
const NewVersion = (
  { template, onPromote, busy }: { template: Template; onPromote: (id: string) => void; busy: boolean }
) => {
  const run = useImport(template.id)
  const queryClient = useQueryClient()
  const created = run.created?.id
  useEffect(() => {
    if (created !== undefined) void queryClient.invalidateQueries({ queryKey: templateKeys.versions(template.id) })
  }, [created])
  return (
    <section aria-labelledby="new-version" className="new-version">
      <h2 id="new-version">Upload a new version</h2>
      {run.created === undefined
        ? <UploadArchive busy={run.pending} action="Upload version" onFile={run.start} />
        : (
          <>
            <ImportProgress created={run.created} given={run.given} busy={run.pending} onRetry={run.retry}>
              {(v) => (
                <Imported
                  version={v}
                  active={v.id === template.active_version_id}
                  busy={busy}
                  onPromote={() => onPromote(v.id)}
                  onShown={() => void queryClient.invalidateQueries({ queryKey: templateKeys.versions(template.id) })}
                />
              )}
            </ImportProgress>
            <button type="button" className="secondary" onClick={run.reset}>Upload another version</button>
          </>
        )}
      <ErrorMessage error={run.error} />
    </section>
  )
}

const Imported = (props: {
  version: TemplateVersion
  active: boolean
  busy: boolean
  onPromote: () => void
  onShown: () => void
}) => {
  useEffect(props.onShown, [props.version.id])
  return (
    <div className="actions">
      {props.active
        ? <p role="status">Version {props.version.name} is the active version.</p>
        : (
          <button type="button" disabled={props.busy} onClick={props.onPromote}>
            Promote version {props.version.name}
          </button>
        )}
    </div>
  )
}
