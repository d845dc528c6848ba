import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { ConfirmButton } from "../../ui/Confirm.tsx"
import { ErrorMessage } from "../../ui/Form.tsx"
import { Time } from "../../ui/Time.tsx"
import { settingsApi } from "./api.ts"
import { externalAuthQuery, settingsKeys } from "./queries.ts"
import { SettingsHeader } from "./Settings.tsx"

/**
 * The deployment's external auth providers and the user's link to each (`GET /external-auth`):
 * link one (its callback route starts the provider's flow) or unlink it
 * (`DELETE /external-auth/{provider}`, confirmed).
 */
export const ExternalAuthPage = () => {
  const queryClient = useQueryClient()
  const list = useQuery(externalAuthQuery)
  const unlink = useMutation({
    mutationFn: settingsApi.unlinkExternalAuth,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.externalAuth })
  })
  const links = new Map(list.data?.links.map((l) => [l.provider_id, l]))
  return (
    <>
      <SettingsHeader
        title="External authentication"
        description="Accounts of other services (git providers and the like) your workspaces use on your behalf."
      />
      <ErrorMessage error={list.error ?? unlink.error} />
      {list.isPending ? <p role="status">Loading…</p> : list.data?.providers.length === 0
        ? <p className="empty">No external authentication providers are configured on this deployment.</p>
        : (
          <table aria-label="External authentication providers">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data?.providers.map((p) => {
                const link = links.get(p.id)
                const name = p.display_name || p.id
                return (
                  <tr key={p.id}>
                    <th scope="row">{name}</th>
                    <td>
                      {link === undefined ? "Not linked" : link.authenticated
                        ? (
                          <>
                            Linked <Time value={link.created_at} />
                          </>
                        )
                        : `Linked, not valid${link.validate_error === "" ? "" : `: ${link.validate_error}`}`}
                    </td>
                    <td>
                      {link === undefined
                        ? (
                          <a href={`/api/v2/external-auth/${encodeURIComponent(p.id)}/callback`}>
                            Link {name}
                          </a>
                        )
                        : (
                          <ConfirmButton
                            label={`Unlink ${name}`}
                            title={`Unlink ${name}?`}
                            confirm="Unlink"
                            danger
                            disabled={unlink.isPending}
                            onConfirm={() => unlink.mutate(p.id)}
                          >
                            <p>Workspaces will no longer use your {name} account until you link it again.</p>
                          </ConfirmButton>
                        )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
    </>
  )
}
