/**
 * A server that trusts trust roots made here (an AWS region certificate, an Azure root, a Google
 * key) with one workspace whose agent runs on instance `i-fixture`, for tests that need an
 * instance identity exchange to succeed. `withIdentityServer` closes the server afterwards.
 */
import {
  awsDocument,
  awsSignature,
  azureDocument,
  azureSignature,
  type GoogleSigner,
  googleToken,
  issue,
  type Issued,
  makeCa,
  makeGoogleSigner
} from "../../../core/test/agents/IdentityFixtures.js"
import { createUser, type Reply, startWithOwner } from "../support.js"
import { makeTemplate, makeWorkspace } from "../workspaces/fixtures.js"

const ACCESS_URL = "https://identity.example.com"
export const FIXTURE_INSTANCE = "i-fixture"

/** Settings of a server at `accessUrl` trusting an AWS region certificate, an Azure root and a Google key. */
export const trustSettings = (
  accessUrl: string,
  roots: { readonly aws: Issued; readonly azure: Issued; readonly google: GoogleSigner }
) => ({
  accessUrl,
  awsInstanceIdentityCertificates: [roots.aws.pem],
  azureInstanceIdentityCertificates: [roots.azure.pem],
  googleInstanceIdentityKeys: [roots.google.jwks]
})

export interface IdentityServer {
  /** Exchanges a signed document of each kind for the agent's token. */
  readonly aws: () => Promise<Reply>
  readonly azure: () => Promise<Reply>
  readonly google: () => Promise<Reply>
}

export const withIdentityServer = async <A>(use: (s: IdentityServer) => Promise<A>): Promise<A> => {
  const region = await makeCa("ec2.amazonaws.com")
  const root = await makeCa("Fixture Azure Root")
  const signer = await issue(root, "metadata.azure.com")
  const google = await makeGoogleSigner("fixture")
  const { srv, owner, orgId } = await startWithOwner({
    lifecycle: false,
    settings: trustSettings(ACCESS_URL, { aws: region, azure: root, google })
  })
  try {
    const dev = (await createUser(owner, { username: "identity-fixture" })).client
    const template = await makeTemplate(
      srv,
      owner,
      orgId,
      `resources:
  - name: box
    type: machine
    agents:
      - name: main
        instance_id: ${FIXTURE_INSTANCE}
`
    )
    await makeWorkspace(srv, dev, orgId, template.id)
    const document = awsDocument(FIXTURE_INSTANCE)
    return await use({
      aws: () =>
        srv.anonymous.post("/workspaceagents/aws-instance-identity", {
          document,
          signature: awsSignature(document, region)
        }),
      azure: async () =>
        srv.anonymous.post("/workspaceagents/azure-instance-identity", {
          encoding: "pkcs7",
          signature: await azureSignature(azureDocument(FIXTURE_INSTANCE), signer, [signer])
        }),
      google: async () =>
        srv.anonymous.post("/workspaceagents/google-instance-identity", {
          json_web_token: await googleToken(google, FIXTURE_INSTANCE, { audience: ACCESS_URL })
        })
    })
  } finally {
    await srv.close()
  }
}
