/**
 * A template's variables (`/templates/:template/variables`, the described system's
 * TemplateVariablesPage): the active version's variables (`GET /templateversions/{id}/variables`)
 * with their values, sensitive ones never shown; saving creates a new version from the active
 * version's file with the values (`POST /organizations/{org}/templateversions` with `file_id`,
 * `template_id`, the provisioner and tags, `user_variable_values`), follows its import live and,
 * once it succeeded, makes it the active version (`PATCH /templates/{id}/versions`). A sensitive
 * field left empty is not sent: the new version keeps the active version's value (the service's
 * rule). Messages land on their fields: the form's checks, the service's validations, and what the
 * failed import says of a variable.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { ErrorMessage } from "../ui/Form.tsx"
import { templatesApi as api, type TemplateVersion, type VariableValue } from "./api.ts"
import { ImportProgress } from "./ImportVersion.tsx"
import { activeVersionChanged, variablesQuery } from "./queries.ts"
import { useTemplate } from "./Template.tsx"
import { useVersion } from "./Templates.tsx"
import { variableErrors, VariablesForm } from "./VariablesForm.tsx"

export const VariablesPage = () => {
  const t = useTemplate()
  const { organization } = useParams()
  const queryClient = useQueryClient()
  const active = useVersion(t.active_version_id)
  const variables = useQuery(variablesQuery(t.active_version_id))
  const [sent, setSent] = useState<ReadonlyArray<VariableValue>>([])
  const [failed, setFailed] = useState<TemplateVersion>()
  // From the new version's creation until its import ended.
  const [importing, setImporting] = useState(false)
  const build = useMutation({
    mutationFn: (input: { version: TemplateVersion; values: ReadonlyArray<VariableValue> }) =>
      api.createVersion(
        { fileId: input.version.job.file_id, provisioner: t.provisioner, tags: input.version.job.tags },
        { templateId: t.id, variables: input.values }
      ),
    onSuccess: () => setImporting(true)
  })
  const activate = useMutation({
    mutationFn: (version: TemplateVersion) => api.promote(t.id, version.id).then(() => version),
    onSuccess: () => activeVersionChanged(queryClient, t, organization)
  })
  const busy = build.isPending || importing || activate.isPending
  const current = active.data
  const listed = variables.data
  return (
    <>
      <h2>Variables</h2>
      <p className="hint">
        Template variables customize the template without changing its files. Saving imports the active version's files
        again as a new version with these values, and makes it the active version.
      </p>
      <ErrorMessage error={active.error ?? variables.error} />
      {current === undefined || listed === undefined
        ? (active.isError || variables.isError ? null : <p role="status">Loading the variables…</p>)
        : listed.length === 0
        ? <p className="empty">The active version ({current.name}) has no template variables.</p>
        : (
          <>
            <p>
              The values of the active version, <strong>{current.name}</strong>.
            </p>
            <VariablesForm
              key={current.id}
              variables={listed}
              level={3}
              busy={busy}
              intro="Sensitive values are never shown."
              action="Save variables"
              sensitiveNote="Sensitive: its value is never shown. Left empty, the new version keeps the current value."
              keepSecrets
              errors={variableErrors(failed, build.error, sent)}
              onSubmit={(values) => {
                setSent(values)
                setFailed(undefined)
                activate.reset()
                build.mutate({ version: current, values })
              }}
            />
          </>
        )}
      <ErrorMessage error={build.error} />
      {build.data === undefined ? null : (
        <ImportProgress
          key={build.data.id}
          created={build.data}
          given={sent}
          busy={busy}
          onEnded={(v) => {
            setImporting(false)
            if (v.job.status === "succeeded") activate.mutate(v)
            else setFailed(v)
          }}
        />
      )}
      <ErrorMessage error={activate.error} />
      {activate.data === undefined ? null : (
        <p role="status" aria-label="Variables saved">
          Saved: version {activate.data.name} is now the active version.
        </p>
      )}
    </>
  )
}
