/**
 * A server with a license key, its owner and a member, and the signer of its licenses: made
 * once, for the shared tables' rows of the license routes.
 */
import { type Client, createUser, type ServiceTestServer, startWithOwner, type TestUser } from "../support.js"
import { licenseClaims, type LicenseSigner, makeSigner } from "./licenses.js"

export interface LicensedWorld {
  readonly srv: ServiceTestServer
  readonly owner: Client
  readonly member: TestUser
  readonly signer: LicenseSigner
  /** Uploads a fresh license (as the owner); its id. */
  readonly addLicense: (claims?: Record<string, unknown>) => Promise<number>
}

let world: Promise<LicensedWorld> | undefined

export const licensedWorld = (): Promise<LicensedWorld> =>
  world ??= (async () => {
    const signer = makeSigner()
    const { srv, owner } = await startWithOwner({ settings: { licensePublicKey: signer.publicKeyPem } })
    const member = await createUser(owner, { username: "licensed-member" })
    const addLicense = async (claims: Record<string, unknown> = {}) => {
      const r = await owner.post("/licenses", { license: await signer.sign(licenseClaims(claims)) })
      if (r.status !== 201) throw new Error(`license: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body.id as number
    }
    return { srv, owner, member, signer, addLicense }
  })()

export const closeLicensedWorld = async () => {
  const w = world
  world = undefined
  if (w !== undefined) await (await w).srv.close()
}
