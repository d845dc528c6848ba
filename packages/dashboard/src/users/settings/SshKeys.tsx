import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { ConfirmButton } from "../../ui/Confirm.tsx"
import { ErrorMessage } from "../../ui/Form.tsx"
import { Time } from "../../ui/Time.tsx"
import { settingsApi } from "./api.ts"
import { gitSshKeyQuery, settingsKeys } from "./queries.ts"
import { SettingsHeader } from "./Settings.tsx"

/** The git SSH key of the workspaces (`GET /users/me/gitsshkey`), and a new one (`PUT`, confirmed). */
export const SshKeysPage = () => {
  const queryClient = useQueryClient()
  const sshKey = useQuery(gitSshKeyQuery)
  const regenerate = useMutation({
    mutationFn: settingsApi.regenerateGitSshKey,
    onSuccess: (k) => queryClient.setQueryData(settingsKeys.gitSshKey, k)
  })
  return (
    <>
      <SettingsHeader
        title="SSH keys"
        description="Your workspaces use this key for git over SSH: add its public key to your git provider."
      />
      {sshKey.isPending ? <p role="status">Loading…</p> : sshKey.data === undefined ? null : (
        <>
          <div className="field">
            <label htmlFor="public-key">Public key</label>
            <textarea id="public-key" className="public-key" readOnly value={sshKey.data.public_key} />
            <p className="hint">
              Made <Time value={sshKey.data.updated_at} />.
            </p>
          </div>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() => void navigator.clipboard?.writeText(sshKey.data.public_key)}
            >
              Copy public key
            </button>
            <ConfirmButton
              label="Regenerate"
              title="Regenerate the SSH key?"
              confirm="Regenerate"
              danger
              disabled={regenerate.isPending}
              onConfirm={() => regenerate.mutate()}
            >
              <p>The old key stops working: git providers that know it must be given the new public key.</p>
            </ConfirmButton>
          </div>
        </>
      )}
      <p role="status">{regenerate.isSuccess ? "A new key was made." : ""}</p>
      <ErrorMessage error={sshKey.error ?? regenerate.error} />
    </>
  )
}
