/**
 * The template summary's prebuilt workspaces (docs/prebuilds.md): the active version's presets that
 * keep some (`GET /templateversions/{id}/presets`, `DesiredPrebuildInstances`), each with its
 * prebuilt workspaces now (the prebuilds user's workspaces of the template,
 * `GET /workspaces?q=owner:prebuilds template:<name>`, by their latest build's preset and status),
 * and "Invalidate prebuilt workspaces" (`POST /templates/{id}/prebuilds/invalidate`) for those who
 * may change the template (`POST /authcheck`). The list is asked again after the invalidation,
 * every 3 s while a prebuilt workspace builds or is deleted, and every 15 s while a preset has
 * fewer ready than it keeps (the reconciler's next tick builds them); never otherwise.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link } from "react-router"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { type PrebuiltWorkspace, type Preset, type Template, templatesApi as api } from "./api.ts"
import { prebuildsQuery, presetsQuery, templateKeys, templatePermissionsQuery } from "./queries.ts"

export type PrebuildState = "ready" | "building" | "failed" | "stopped" | "deleting"

/** What a prebuilt workspace is now, by its latest build. */
export const prebuildState = (w: PrebuiltWorkspace): PrebuildState => {
  const b = w.latest_build
  if (b.status === "failed" || b.status === "canceled" || b.status === "canceling") return "failed"
  if (b.transition === "delete") return "deleting"
  if (b.transition === "stop") return b.status === "stopped" ? "stopped" : "building"
  return b.status === "running" ? "ready" : "building"
}

const LABEL: Record<PrebuildState, string> = {
  ready: "Ready",
  building: "Building",
  failed: "Failed",
  stopped: "Stopped",
  deleting: "Deleting"
}

const COUNTED: ReadonlyArray<PrebuildState> = ["ready", "building", "failed", "deleting"]

const keeps = (p: Preset) => (p.DesiredPrebuildInstances ?? 0) > 0

export const TemplatePrebuilds = ({ template: t }: { template: Template }) => {
  const presets = useQuery(presetsQuery(t.active_version_id))
  const may = useQuery(templatePermissionsQuery(t))
  const kept = (presets.data ?? []).filter(keeps)
  const queryClient = useQueryClient()
  const list = useQuery({
    ...prebuildsQuery(t),
    enabled: kept.length > 0 && may.data?.viewPrebuilds === true,
    refetchInterval: (query) => {
      const ws = query.state.data
      if (ws === undefined) return false
      if (ws.some((w) => ["building", "deleting"].includes(prebuildState(w)))) return 3_000
      const short = kept.some((p) =>
        ws.filter((w) => w.latest_build.template_version_preset_id === p.ID && prebuildState(w) === "ready").length <
          (p.DesiredPrebuildInstances ?? 0)
      )
      return short ? 15_000 : false
    }
  })
  const invalidate = useMutation({
    mutationFn: () => api.invalidatePrebuilds(t.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: templateKeys.prebuilds(t.id) })
  })
  if (presets.isError) return <ErrorMessage error={presets.error} />
  if (kept.length === 0) return null
  const workspaces = list.data ?? []
  const ofPreset = (p: Preset) => workspaces.filter((w) => w.latest_build.template_version_preset_id === p.ID)
  const presetName = (w: PrebuiltWorkspace) =>
    kept.find((p) => p.ID === w.latest_build.template_version_preset_id)?.Name
  const seen = may.data?.viewPrebuilds === true
  return (
    <section aria-labelledby="prebuilds" className="prebuilds">
      <h2 id="prebuilds">Prebuilt workspaces</h2>
      <p className="hint">
        Kept built ahead of time for the active version's presets: creating a workspace with one of these presets takes
        over a ready one.
      </p>
      <ErrorMessage error={may.error ?? list.error} />
      <table>
        <caption className="visually-hidden">Presets keeping prebuilt workspaces</caption>
        <thead>
          <tr>
            <th scope="col">Preset</th>
            <th scope="col">Desired</th>
            {seen ? COUNTED.map((s) => <th key={s} scope="col">{LABEL[s]}</th>) : null}
          </tr>
        </thead>
        <tbody>
          {kept.map((p) => (
            <tr key={p.ID}>
              <th scope="row">{p.Name}</th>
              <td>{p.DesiredPrebuildInstances}</td>
              {seen
                ? COUNTED.map((s) => (
                  <td key={s}>
                    {list.data === undefined ? "…" : ofPreset(p).filter((w) => prebuildState(w) === s).length}
                  </td>
                ))
                : null}
            </tr>
          ))}
        </tbody>
      </table>
      {may.data !== undefined && !seen
        ? <p className="hint">The prebuilt workspaces themselves are shown to those who may read them.</p>
        : null}
      {seen && list.data !== undefined
        ? workspaces.length === 0
          ? <p className="empty">No prebuilt workspaces at the moment: the reconciler builds them at its next run.</p>
          : (
            <table>
              <caption>Prebuilt workspaces now</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Preset</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {workspaces.map((w) => (
                  <tr key={w.id}>
                    <th scope="row">
                      <Link to={`/@${encodeURIComponent(w.owner_name)}/${encodeURIComponent(w.name)}`}>{w.name}</Link>
                    </th>
                    <td>{presetName(w) ?? "Another version or preset (to be deleted)"}</td>
                    <td>
                      <span className={`prebuild-state prebuild-${prebuildState(w)}`}>{LABEL[prebuildState(w)]}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        : null}
      {may.data?.update === true
        ? (
          <div className="actions">
            <ConfirmButton
              label="Invalidate prebuilt workspaces"
              title="Invalidate the prebuilt workspaces?"
              confirm="Invalidate"
              danger
              disabled={invalidate.isPending}
              onConfirm={() => invalidate.mutate()}
            >
              <p>
                Every prebuilt workspace of this template is deleted; the reconciler builds fresh ones from the active
                version at its next run. Workspaces already claimed are not touched.
              </p>
            </ConfirmButton>
          </div>
        )
        : null}
      <ErrorMessage error={invalidate.error} />
      {invalidate.data === undefined ? null : (
        <p role="status" aria-label="Invalidation">
          {invalidate.data.invalidated.length === 0
            ? "No preset keeps prebuilt workspaces: nothing invalidated."
            : `Invalidated the prebuilt workspaces of ${
              invalidate.data.invalidated.map((p) => `${p.preset_name} (version ${p.template_version_name})`).join(", ")
            }.`}
        </p>
      )}
    </section>
  )
}
