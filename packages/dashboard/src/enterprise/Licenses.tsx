import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { usePermissions } from "../api/permissions.ts"
import { ConfirmButton } from "../ui/Confirm.tsx"
import { ErrorMessage } from "../ui/Form.tsx"
import { Time } from "../ui/Time.tsx"
import { enterpriseApi as api } from "./api.ts"
import { enterpriseKeys, entitlementsQuery, licensesQuery } from "./queries.ts"
import "./admin.css"

const claim = (claims: Record<string, unknown>, key: string) => {
  const v = claims[key]
  return typeof v === "string" || typeof v === "number" ? String(v) : "—"
}

/**
 * Licenses (`GET /licenses`, add one: `POST /licenses`, remove: `DELETE /licenses/{id}`) and what
 * the deployment is entitled to (`GET /entitlements`: each feature, its entitlement, on or off,
 * its limit and use).
 */
export const LicensesPage = () => {
  const licenses = useQuery(licensesQuery)
  const entitlements = useQuery(entitlementsQuery)
  const may = usePermissions().data
  const queryClient = useQueryClient()
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: enterpriseKeys.licenses })
    await queryClient.invalidateQueries({ queryKey: enterpriseKeys.entitlements })
  }
  const add = useMutation({ mutationFn: api.addLicense, onSuccess: changed })
  const remove = useMutation({ mutationFn: api.deleteLicense, onSuccess: changed })
  return (
    <>
      <h1>Licenses</h1>
      <ErrorMessage error={licenses.error ?? remove.error} />
      {licenses.data === undefined ? <p role="status">Loading licenses…</p> : licenses.data.length === 0
        ? <p className="empty">No license added.</p>
        : (
          <table>
            <caption className="visually-hidden">Licenses</caption>
            <thead>
              <tr>
                <th scope="col">License</th>
                <th scope="col">Uploaded</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {licenses.data.map((l) => (
                <tr key={l.id}>
                  <th scope="row">
                    {claim(l.claims, "account_id")}
                    <span className="owner">{l.uuid}</span>
                  </th>
                  <td>
                    <Time value={l.uploaded_at} />
                  </td>
                  <td>{claim(l.claims, "license_expires")}</td>
                  <td>
                    <ConfirmButton
                      label="Remove"
                      title="Remove this license?"
                      danger
                      onConfirm={() => remove.mutate(l.id)}
                    >
                      <p>The features it enables stop at once.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {may?.createLicense === true
        ? (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault()
              const form = e.currentTarget
              const license = String(new FormData(form).get("license") ?? "").trim()
              add.mutate(license, { onSuccess: () => form.reset() })
            }}
          >
            <div className="field">
              <label htmlFor="license">License key</label>
              <textarea id="license" name="license" required />
            </div>
            <ErrorMessage error={add.error} />
            <button type="submit" disabled={add.isPending}>Add license</button>
          </form>
        )
        : null}
      <h2>Entitlements</h2>
      <ErrorMessage error={entitlements.error} />
      {entitlements.data === undefined ? <p role="status">Loading entitlements…</p> : (
        <table>
          <caption className="visually-hidden">Features and their entitlements</caption>
          <thead>
            <tr>
              <th scope="col">Feature</th>
              <th scope="col">Entitlement</th>
              <th scope="col">Enabled</th>
              <th scope="col">Use</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(entitlements.data.features).map(([name, f]) => (
              <tr key={name}>
                <th scope="row">{name.replaceAll("_", " ")}</th>
                <td>{f.entitlement.replaceAll("_", " ")}</td>
                <td>{f.enabled ? "Yes" : "No"}</td>
                <td>{f.actual === undefined ? "—" : f.limit === undefined ? f.actual : `${f.actual} of ${f.limit}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
