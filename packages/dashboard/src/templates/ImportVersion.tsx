/**
 * A template version's import, from its creation to its outcome: the version is created
 * (`POST /organizations/{org}/templateversions`), its job's log followed live
 * (`/templateversions/{id}/logs?follow=true`); when the stream ends the version is read again
 * for the job's outcome. An import that failed for want of required variables asks for them and
 * creates the version again with `user_variable_values`.
 */
import { useMutation, useQuery } from "@tanstack/react-query"
import { type ReactNode, useEffect, useRef, useState } from "react"
import { ErrorMessage } from "../ui/Form.tsx"
import { JobLogs } from "../ui/JobLogs.tsx"
import {
  importEnded,
  needsVariables,
  templatesApi as api,
  type TemplateVersion,
  type VariableValue,
  type VersionSource
} from "./api.ts"
import { variablesQuery, versionQuery } from "./queries.ts"
import { VariablesForm, variablesToAsk } from "./VariablesForm.tsx"

const STATUS: Record<string, string> = {
  pending: "Pending",
  running: "Running",
  succeeded: "Succeeded",
  canceling: "Canceling",
  canceled: "Canceled",
  failed: "Failed",
  unknown: "Unknown"
}

/** Starts imports: `start(source)` creates a version; `version` is the latest one created. */
export const useImport = (templateId?: string) => {
  const [source, setSource] = useState<VersionSource>()
  const [given, setGiven] = useState<ReadonlyArray<VariableValue>>([])
  const create = useMutation({
    mutationFn: (input: { source: VersionSource; variables: ReadonlyArray<VariableValue> }) =>
      api.createVersion(input.source, {
        variables: input.variables,
        ...(templateId === undefined ? {} : { templateId })
      })
  })
  return {
    created: create.data,
    error: create.error,
    pending: create.isPending,
    /** Where the versions come from. */
    source,
    /** The variables' values the latest version was created with. */
    given,
    start: (next: VersionSource) => {
      setSource(next)
      setGiven([])
      create.mutate({ source: next, variables: [] })
    },
    /** The same source again, with the template variables' values. */
    retry: (variables: ReadonlyArray<VariableValue>) => {
      if (source === undefined) return
      setGiven(variables)
      create.mutate({ source, variables })
    },
    reset: () => {
      setSource(undefined)
      create.reset()
    }
  }
}

/**
 * The import of `created` (as the create call answered it), live: its status, its log, and (with
 * `onRetry`) the variables form when it needs them; `children` once the import succeeded (what to
 * do with the version); `onEnded` once, when the import ended in any way.
 */
export const ImportProgress = (props: {
  readonly created: TemplateVersion
  readonly given: ReadonlyArray<VariableValue>
  readonly busy: boolean
  readonly onRetry?: (variables: ReadonlyArray<VariableValue>) => void
  readonly onEnded?: (version: TemplateVersion) => void
  readonly children?: (version: TemplateVersion) => ReactNode
}) => {
  const id = props.created.id
  const version = useQuery({ ...versionQuery(id), initialData: props.created, staleTime: Infinity })
  const v = version.data
  const ended = importEnded(v)
  const onRetry = props.onRetry
  const ask = needsVariables(v) && onRetry !== undefined
  const variables = useQuery({ ...variablesQuery(id), enabled: ask })
  const reported = useRef<string>(undefined)
  useEffect(() => {
    if (!ended || reported.current === id) return
    reported.current = id
    props.onEnded?.(v)
  }, [ended, id])
  return (
    <section aria-labelledby={`import-${id}`} className="import">
      <h2 id={`import-${id}`}>Import of version {v.name}</h2>
      <p>
        Status:{" "}
        <span role="status" aria-label="Import status" className={`status status-${v.job.status}`}>
          {STATUS[v.job.status] ?? v.job.status}
        </span>
      </p>
      <JobLogs
        path={`/templateversions/${encodeURIComponent(id)}/logs`}
        label="Import log"
        onDone={() => void version.refetch()}
      />
      <ErrorMessage error={version.error} />
      {ended && v.job.status === "failed" && !ask
        ? (
          <div role="alert" className="error">
            <p>The import failed: {v.job.error ?? "no reason given."}</p>
          </div>
        )
        : null}
      {ask && onRetry !== undefined
        ? variables.isPending
          ? <p role="status">Loading the template variables…</p>
          : (
            <VariablesForm
              key={id}
              variables={variablesToAsk(v, variables.data ?? [])}
              given={props.given}
              busy={props.busy}
              onSubmit={onRetry}
            />
          )
        : null}
      {v.job.status === "succeeded" ? props.children?.(v) : null}
    </section>
  )
}
