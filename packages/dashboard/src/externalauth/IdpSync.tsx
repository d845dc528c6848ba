/**
 * IdP sync: what an OpenID Connect sign-in gives a person, from a claim of the identity provider.
 * - `/deployment/idp-org-sync`: organization sync (the claim, whether everyone also gets the
 *   default organization, and which claim value gives which organization);
 * - `/organizations/:org/idp-sync`: the organization's group sync (the claim, a regular expression
 *   that filters its values, whether missing groups are made, claim value → group) and role sync
 *   (the claim, claim value → organization role).
 * Each setting applies at each sign-in ([sign-in.md](sign-in.md#idp-sync)). Claim names that
 * sign-ins have shown are offered as suggestions.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { useParams } from "react-router"
import { groupsQuery } from "../groups/queries.ts"
import { organizationsQuery, rolesQuery } from "../organizations/queries.ts"
import { fieldError } from "../templates/api.ts"
import { CheckField, TextField } from "../templates/Fields.tsx"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { idpSyncApi as api, type MappingChange, mappingRows } from "./api.ts"
import {
  fieldsQuery,
  groupSyncQuery,
  idpSyncKeys,
  organizationFieldsQuery,
  organizationSyncQuery,
  roleSyncQuery
} from "./queries.ts"
import "./styles.css"

interface Target {
  readonly id: string
  readonly name: string
}

/** A mapping's rows (claim value → what it gives), each removable, and a row to add. */
const MappingEditor = (props: {
  readonly what: string
  readonly mapping: Readonly<Record<string, ReadonlyArray<string>>>
  readonly targets: ReadonlyArray<Target>
  readonly onChange: (change: MappingChange) => void
  readonly pending: boolean
  readonly error: Error | null
}) => {
  const id = useId()
  const [given, setGiven] = useState("")
  const [gets, setGets] = useState("")
  const nameOf = (target: string) => props.targets.find((t) => t.id === target)?.name ?? target
  const rows = mappingRows(props.mapping)
  return (
    <section aria-labelledby={`${id}-title`} className="mapping">
      <h3 id={`${id}-title`}>Mapping of claim values to {props.what}s</h3>
      {rows.length === 0 ? <p className="empty">No mappings yet.</p> : (
        <table>
          <caption className="visually-hidden">Claim values and their {props.what}s</caption>
          <thead>
            <tr>
              <th scope="col">Claim value</th>
              <th scope="col">{props.what.charAt(0).toUpperCase() + props.what.slice(1)}</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.given} ${r.gets}`}>
                <th scope="row">{r.given}</th>
                <td>{nameOf(r.gets)}</td>
                <td>
                  <ConfirmButton
                    label={`Remove ${r.given} → ${nameOf(r.gets)}`}
                    title="Remove this mapping?"
                    confirm="Remove"
                    danger
                    disabled={props.pending}
                    onConfirm={() => props.onChange({ Remove: [{ Given: r.given, Gets: r.gets }] })}
                  >
                    <p>
                      From the next sign-in, the claim value {r.given} no longer gives {nameOf(r.gets)}.
                    </p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="row"
        aria-label={`New ${props.what} mapping`}
        onSubmit={(e) => {
          e.preventDefault()
          if (given.trim() === "" || gets === "") return
          props.onChange({ Add: [{ Given: given.trim(), Gets: gets }] })
          setGiven("")
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-given`}>Claim value</label>
          <input id={`${id}-given`} value={given} onChange={(e) => setGiven(e.currentTarget.value)} required />
        </div>
        <div className="field">
          <label htmlFor={`${id}-gets`}>{props.what.charAt(0).toUpperCase() + props.what.slice(1)}</label>
          <select id={`${id}-gets`} value={gets} onChange={(e) => setGets(e.currentTarget.value)} required>
            <option value="">Choose…</option>
            {props.targets.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </div>
        <button type="submit" disabled={props.pending || given.trim() === "" || gets === ""}>
          Add mapping
        </button>
      </form>
      <ErrorMessage error={props.error} />
    </section>
  )
}

/** Claim names seen at sign-ins, as suggestions for a claim field. */
const FieldSuggestions = ({ id, fields }: { id: string; fields: ReadonlyArray<string> | undefined }) => (
  <datalist id={id}>
    {(fields ?? []).map((f) => <option key={f} value={f} />)}
  </datalist>
)

const useSaved = () => {
  const [saved, setSaved] = useState("")
  return { saved, say: (what: string) => setSaved(`${what} saved.`), clear: () => setSaved("") }
}

/** `/deployment/idp-org-sync`: the deployment's organization sync. */
export const OrganizationSyncPage = () => {
  const queryClient = useQueryClient()
  const key = idpSyncKeys.organization
  const settings = useQuery(organizationSyncQuery)
  const organizations = useQuery(organizationsQuery)
  const fields = useQuery(fieldsQuery)
  const status = useSaved()
  const config = useMutation({
    mutationFn: api.organizationConfig,
    onSuccess: (s) => (queryClient.setQueryData(key, s), status.say("Organization sync"))
  })
  const mapping = useMutation({
    mutationFn: api.organizationMapping,
    onSuccess: (s) => (queryClient.setQueryData(key, s), status.say("Mapping"))
  })
  const s = settings.data
  return (
    <>
      <h1>IdP organization sync</h1>
      <p>Which organizations an OpenID Connect sign-in puts a person in, from a claim of the identity provider.</p>
      <ErrorMessage error={settings.error ?? organizations.error} />
      {s === undefined ? <p role="status">Loading…</p> : (
        <>
          <form
            noValidate
            aria-label="Organization sync"
            className="settings"
            key={`${s.field} ${s.organization_assign_default}`}
            onSubmit={(e) => {
              e.preventDefault()
              status.clear()
              const form = new FormData(e.currentTarget)
              config.mutate({
                field: String(form.get("org_field") ?? "").trim(),
                assign_default: form.get("org_assign_default") !== null
              })
            }}
          >
            <TextField
              label="Organization claim"
              name="org_field"
              defaultValue={s.field}
              hint="The claim whose values name organizations; empty turns organization sync off."
              error={fieldError(config.error, "field")}
              list="org-fields"
            />
            <FieldSuggestions id="org-fields" fields={fields.data} />
            <CheckField
              label="Also assign the default organization"
              name="org_assign_default"
              defaultChecked={s.organization_assign_default}
            />
            <ErrorMessage error={config.error} />
            <button type="submit" disabled={config.isPending}>Save organization sync</button>
          </form>
          <MappingEditor
            what="organization"
            mapping={s.mapping}
            targets={(organizations.data ?? []).map((o) => ({ id: o.id, name: o.display_name || o.name }))}
            pending={mapping.isPending}
            error={mapping.error}
            onChange={(change) => {
              status.clear()
              mapping.mutate(change)
            }}
          />
        </>
      )}
      <p role="status">{status.saved}</p>
    </>
  )
}

/** `/organizations/:org/idp-sync`: the organization's group and role sync. */
export const OrganizationIdpSyncPage = () => {
  const { org = "" } = useParams()
  const queryClient = useQueryClient()
  const groupKey = idpSyncKeys.groups(org)
  const roleKey = idpSyncKeys.roles(org)
  const groupSync = useQuery(groupSyncQuery(org))
  const roleSync = useQuery(roleSyncQuery(org))
  const groups = useQuery(groupsQuery(org))
  const roles = useQuery(rolesQuery(org))
  const fields = useQuery(organizationFieldsQuery(org))
  const status = useSaved()
  const groupConfig = useMutation({
    mutationFn: (body: Parameters<typeof api.groupConfig>[1]) => api.groupConfig(org, body),
    onSuccess: (s) => (queryClient.setQueryData(groupKey, s), status.say("Group sync"))
  })
  const groupMapping = useMutation({
    mutationFn: (change: MappingChange) => api.groupMapping(org, change),
    onSuccess: (s) => (queryClient.setQueryData(groupKey, s), status.say("Group mapping"))
  })
  const roleConfig = useMutation({
    mutationFn: (body: { field: string }) => api.roleConfig(org, body),
    onSuccess: (s) => (queryClient.setQueryData(roleKey, s), status.say("Role sync"))
  })
  const roleMapping = useMutation({
    mutationFn: (change: MappingChange) => api.roleMapping(org, change),
    onSuccess: (s) => (queryClient.setQueryData(roleKey, s), status.say("Role mapping"))
  })
  const g = groupSync.data
  const r = roleSync.data
  return (
    <>
      <h2>IdP sync</h2>
      <p>
        Which of this organization's groups and roles an OpenID Connect sign-in gives, from claims of the identity
        provider.
      </p>
      <FieldSuggestions id="claim-fields" fields={fields.data} />
      <ErrorMessage error={groupSync.error ?? roleSync.error ?? groups.error ?? roles.error} />
      <section aria-labelledby="group-sync" className="sync">
        <h3 id="group-sync">Group sync</h3>
        {g === undefined ? <p role="status">Loading…</p> : (
          <>
            <form
              noValidate
              aria-label="Group sync"
              className="settings"
              key={`${g.field} ${g.regex_filter} ${g.auto_create_missing_groups}`}
              onSubmit={(e) => {
                e.preventDefault()
                status.clear()
                const form = new FormData(e.currentTarget)
                groupConfig.mutate({
                  field: String(form.get("group_field") ?? "").trim(),
                  regex_filter: String(form.get("regex_filter") ?? ""),
                  auto_create_missing_groups: form.get("auto_create") !== null
                })
              }}
            >
              <TextField
                label="Group claim"
                name="group_field"
                defaultValue={g.field}
                hint="The claim whose values name groups; empty turns group sync off."
                error={fieldError(groupConfig.error, "field")}
                list="claim-fields"
              />
              <TextField
                label="Regex filter"
                name="regex_filter"
                defaultValue={g.regex_filter ?? ""}
                hint="Only claim values matching it are synced; empty keeps them all."
                error={fieldError(groupConfig.error, "regex_filter")}
              />
              <CheckField
                label="Create missing groups"
                name="auto_create"
                defaultChecked={g.auto_create_missing_groups}
              />
              <ErrorMessage error={groupConfig.error} />
              <button type="submit" disabled={groupConfig.isPending}>Save group sync</button>
            </form>
            <MappingEditor
              what="group"
              mapping={g.mapping}
              targets={(groups.data ?? []).map((x) => ({ id: x.id, name: x.display_name || x.name }))}
              pending={groupMapping.isPending}
              error={groupMapping.error}
              onChange={(change) => {
                status.clear()
                groupMapping.mutate(change)
              }}
            />
          </>
        )}
      </section>
      <section aria-labelledby="role-sync" className="sync">
        <h3 id="role-sync">Role sync</h3>
        {r === undefined ? <p role="status">Loading…</p> : (
          <>
            <form
              noValidate
              aria-label="Role sync"
              className="settings"
              key={r.field}
              onSubmit={(e) => {
                e.preventDefault()
                status.clear()
                roleConfig.mutate({ field: String(new FormData(e.currentTarget).get("role_field") ?? "").trim() })
              }}
            >
              <TextField
                label="Role claim"
                name="role_field"
                defaultValue={r.field}
                hint="The claim whose values name organization roles; empty turns role sync off."
                error={fieldError(roleConfig.error, "field")}
                list="claim-fields"
              />
              <ErrorMessage error={roleConfig.error} />
              <button type="submit" disabled={roleConfig.isPending}>Save role sync</button>
            </form>
            <MappingEditor
              what="role"
              mapping={r.mapping}
              targets={(roles.data ?? []).map((x) => ({ id: x.name, name: x.display_name || x.name }))}
              pending={roleMapping.isPending}
              error={roleMapping.error}
              onChange={(change) => {
                status.clear()
                roleMapping.mutate(change)
              }}
            />
          </>
        )}
      </section>
      <p role="status">{status.saved}</p>
    </>
  )
}
