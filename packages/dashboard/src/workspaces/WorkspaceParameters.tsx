/**
 * A workspace's parameters after it was made, as the described system's dashboard has them
 * (WorkspaceParametersPageExperimental, UpdateBuildParametersDialogExperimental):
 * - `WorkspaceParameters`: the latest build's values, and "Change parameters", a dialog with the
 *   version's parameter form (parameterForm.ts, the create form's: evaluated live for the
 *   workspace's owner from the latest build's values; immutable ones locked and kept, ephemeral
 *   ones at their default, monotonic ones checked against their value) that starts a new build
 *   with the changed values;
 * - `UpdateButton`: an update to the active version builds at once when the latest build's values
 *   suit it; when they do not (a new required parameter, a value the new rules refuse), the
 *   dialog asks for the new version's parameters first.
 * The service checks the same rules again (its validations land on the fields).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useId, useRef, useState } from "react"
import { ApiError } from "../api/client.ts"
import { ErrorMessage } from "../ui/Form.tsx"
import { type NameValue, type Workspace, workspacesApi as api } from "./api.ts"
import { ParameterFields } from "./ParameterFields.tsx"
import { useParameterForm } from "./parameterForm.ts"
import { labelOf, unanswered } from "./parameters.ts"
import { buildParametersQuery, richParametersQuery } from "./queries.ts"

/**
 * The modal form of `version`'s parameters (parameterForm.ts: evaluated live for the workspace's
 * owner, immutable ones the workspace has locked) that starts a build of `version` with them.
 */
const ParametersDialog = (
  { workspace: w, version, previous, only, refused, title, intro, submit, onClose }: {
    workspace: Workspace
    version: string
    previous: ReadonlyArray<NameValue>
    /** Only these parameters (the classic update: what the workspace cannot answer). */
    only?: ReadonlyArray<string>
    /** The service's validations of the build the dialog opens for (shown at once). */
    refused?: ReadonlyArray<{ field: string; detail: string }>
    title: string
    intro: string
    submit: string
    onClose: () => void
  }
) => {
  const titleId = useId()
  const form = useParameterForm({
    version,
    classic: w.template_use_classic_parameter_flow,
    owner: w.owner_id,
    previous,
    only,
    refused,
    showAll: refused !== undefined
  })
  const build = useMutation({
    mutationFn: () => api.build(w.id, "start", { template_version_id: version, rich_parameter_values: form.request() }),
    onSuccess: onClose,
    onError: (e) => {
      if (e instanceof ApiError) form.refused(e)
    }
  })
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const element = e.currentTarget
    if (!form.submit()) {
      queueMicrotask(() => element.querySelector<HTMLElement>("[aria-invalid=true]")?.focus())
      return
    }
    build.mutate()
  }
  const dialog = useRef<HTMLDialogElement>(null)
  return (
    <dialog
      ref={(node) => {
        dialog.current = node
        if (node !== null && !node.open) node.showModal()
      }}
      aria-labelledby={titleId}
      aria-busy={form.loading ? true : undefined}
      className="confirm"
      onClose={onClose}
    >
      <h2 id={titleId}>{title}</h2>
      <p>{intro}</p>
      {form.loading
        ? <p role="status">Loading the parameters…</p>
        : form.error !== null
        ? <ErrorMessage error={form.error} />
        : (
          <form noValidate onSubmit={onSubmit}>
            {form.parameters.length === 0 ? <p className="empty">This version has no parameters.</p> : null}
            <ParameterFields {...form.fields} />
            <ErrorMessage error={build.error} />
            <div className="actions">
              <button type="button" className="secondary" onClick={() => dialog.current?.close()}>Cancel</button>
              <button type="submit" disabled={build.isPending}>{build.isPending ? "Building…" : submit}</button>
            </div>
          </form>
        )}
      {form.loading || form.error !== null
        ? (
          <div className="actions">
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>Cancel</button>
          </div>
        )
        : null}
    </dialog>
  )
}

/** The latest build's parameter values, and the dialog that changes them with a new build. */
export const WorkspaceParameters = ({ workspace: w, disabled }: { workspace: Workspace; disabled: boolean }) => {
  const version = w.latest_build.template_version_id
  const parameters = useQuery(richParametersQuery(version))
  const values = useQuery(buildParametersQuery(w.latest_build.id))
  const [editing, setEditing] = useState(false)
  if (parameters.isError) return <ErrorMessage error={parameters.error} />
  if (values.isError) return <ErrorMessage error={values.error} />
  if (parameters.data === undefined || values.data === undefined || parameters.data.length === 0) return null
  const byName = new Map(values.data.map((v) => [v.name, v.value]))
  return (
    <section aria-labelledby="parameters-heading">
      <h2 id="parameters-heading">Parameters</h2>
      <dl className="facts">
        {parameters.data.map((p) => (
          <div key={p.name} className="contents">
            <dt>{labelOf(p)}</dt>
            <dd>{p.ephemeral ? "(ephemeral)" : byName.get(p.name) || "—"}</dd>
          </div>
        ))}
      </dl>
      <button type="button" disabled={disabled} onClick={() => setEditing(true)}>Change parameters</button>
      {editing
        ? (
          <ParametersDialog
            workspace={w}
            version={version}
            previous={values.data}
            title={`Parameters of ${w.name}`}
            intro="Saving starts the workspace with these values. Parameters that cannot change once the workspace exists are locked."
            submit="Save and start"
            onClose={() => setEditing(false)}
          />
        )
        : null}
    </section>
  )
}

/**
 * "Update": a build of the active version. As the described system: a template that follows the
 * dynamic parameters tries the build, and when the service refuses the workspace's values
 * (`rich_parameter_values.NAME`), the dialog asks for the version's parameters, evaluated, with
 * the refusals on their fields; the classic one asks first for what the workspace cannot answer
 * (`unanswered`).
 */
export const UpdateButton = ({ workspace: w, disabled, onError }: {
  workspace: Workspace
  disabled: boolean
  onError: (error: Error | null) => void
}) => {
  const queryClient = useQueryClient()
  const version = w.template_active_version_id
  const [asking, setAsking] = useState<
    {
      previous: ReadonlyArray<NameValue>
      only?: ReadonlyArray<string>
      refused?: ReadonlyArray<{ field: string; detail: string }>
    } | undefined
  >()
  const update = useMutation({
    mutationFn: async () => {
      const previous = await queryClient.fetchQuery(buildParametersQuery(w.latest_build.id))
      if (w.template_use_classic_parameter_flow) {
        const missing = unanswered(await queryClient.fetchQuery(richParametersQuery(version)), previous)
        if (missing.length > 0) return setAsking({ previous, only: missing.map((p) => p.name) })
        return void (await api.build(w.id, "start", { template_version_id: version }))
      }
      try {
        await api.build(w.id, "start", { template_version_id: version })
      } catch (e) {
        const refused = e instanceof ApiError
          ? e.validations.filter((v) => v.field.startsWith("rich_parameter_values."))
          : []
        if (refused.length === 0) throw e
        setAsking({ previous, refused })
      }
    },
    onMutate: () => onError(null),
    onError
  })
  return (
    <>
      <button type="button" disabled={disabled || update.isPending} onClick={() => update.mutate()}>Update</button>
      {asking === undefined ? null : (
        <ParametersDialog
          workspace={w}
          version={version}
          previous={asking.previous}
          {...(asking.only !== undefined ? { only: asking.only } : {})}
          {...(asking.refused !== undefined ? { refused: asking.refused } : {})}
          title={`Update ${w.name}`}
          intro="The template's new version needs these parameters."
          submit="Update"
          onClose={() => setAsking(undefined)}
        />
      )}
    </>
  )
}
