import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { ConfirmButton } from "../../ui/Confirm.tsx"
import { ErrorMessage } from "../../ui/Form.tsx"
import { SecretOnce } from "../../ui/SecretOnce.tsx"
import { Time } from "../../ui/Time.tsx"
import { DAY_NS, settingsApi } from "./api.ts"
import { settingsKeys, tokenConfigQuery, tokensQuery } from "./queries.ts"
import { SettingsHeader } from "./Settings.tsx"

const LIFETIMES = [7, 30, 60, 90, 180, 365]

/** The choices of lifetime (days) up to the deployment's maximum for the user (nanoseconds). */
export const lifetimeChoices = (maxNs: number | undefined) => {
  const maxDays = maxNs === undefined ? 30 : Math.floor(maxNs / DAY_NS)
  const days = LIFETIMES.filter((d) => d <= maxDays)
  return days.length === 0 || days.at(-1) !== maxDays ? [...days, maxDays].filter((d) => d > 0) : days
}

/**
 * API tokens: the list (`GET /users/me/keys/tokens`), a new one by name and lifetime (`POST`,
 * whose secret is shown here once, to copy), and deleting one (`DELETE .../{name}`, confirmed).
 */
export const TokensPage = () => {
  const queryClient = useQueryClient()
  const tokens = useQuery(tokensQuery)
  const config = useQuery(tokenConfigQuery)
  const create = useMutation({
    mutationFn: settingsApi.createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.tokens })
  })
  const remove = useMutation({
    mutationFn: settingsApi.deleteToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.tokens })
  })
  const choices = lifetimeChoices(config.data?.max_token_lifetime)
  return (
    <>
      <SettingsHeader
        title="Tokens"
        description="Long-lived tokens for the command line and scripts: they act as you, until they expire."
      />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          create.mutate({
            token_name: String(data.get("token_name")),
            lifetime: Number(data.get("lifetime")) * DAY_NS
          }, { onSuccess: () => (e.target as HTMLFormElement).reset() })
        }}
      >
        <div className="row">
          <div className="field">
            <label htmlFor="token_name">Name</label>
            <input id="token_name" name="token_name" required pattern="[a-zA-Z0-9][a-zA-Z0-9_.\-]*" maxLength={64} />
          </div>
          <div className="field">
            <label htmlFor="lifetime">Expires in</label>
            <select id="lifetime" name="lifetime" defaultValue={choices.includes(30) ? 30 : choices[0]}>
              {choices.map((d) => <option key={d} value={d}>{d} days</option>)}
            </select>
          </div>
          <button type="submit" disabled={create.isPending}>Create token</button>
        </div>
        <ErrorMessage error={create.error} />
      </form>
      {create.data === undefined ? null : (
        <SecretOnce
          title="Your new token"
          label="Token secret"
          secret={create.data.key}
          onDone={() => create.reset()}
        />
      )}
      <ErrorMessage error={tokens.error ?? remove.error} />
      {tokens.isPending ? <p role="status">Loading…</p> : tokens.data?.length === 0
        ? <p className="empty">No tokens yet.</p>
        : (
          <table aria-label="Tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data?.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.token_name}</th>
                  <td>
                    <Time value={t.created_at} />
                  </td>
                  <td>
                    <Time value={t.last_used} />
                  </td>
                  <td>
                    <Time value={t.expires_at} />
                  </td>
                  <td>
                    <ConfirmButton
                      label={`Delete ${t.token_name}`}
                      title={`Delete the token ${t.token_name}?`}
                      confirm="Delete"
                      danger
                      disabled={remove.isPending}
                      onConfirm={() => remove.mutate(t.token_name)}
                    >
                      <p>Whatever uses it will be refused from now on.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </>
  )
}
