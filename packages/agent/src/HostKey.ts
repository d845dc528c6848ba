/**
 * The agent's SSH host key: Ed25519 whose seed is SHA-256("workbay agent ssh host key\0" +
 * token), so it is stable while the agent keeps its token and new with a new token. Written in
 * OpenSSH's private key format (unencrypted), which ssh2 reads.
 */
import { createHash, createPrivateKey, createPublicKey } from "node:crypto"

/** PKCS #8 DER of an Ed25519 private key, before its 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const sshString = (data: Buffer | string) => {
  const b = typeof data === "string" ? Buffer.from(data) : data
  return Buffer.concat([u32(b.length), b])
}

/** The Ed25519 key of `seed` (32 bytes): its private key in OpenSSH's format and its public key line. */
export const ed25519FromSeed = (seed: Buffer): { readonly privateKey: string; readonly publicKey: string } => {
  if (seed.length !== 32) throw new Error("An Ed25519 seed is 32 bytes.")
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" })
  const jwk = createPublicKey(key).export({ format: "jwk" })
  const pub = Buffer.from(jwk.x!, "base64url")
  const publicBlob = Buffer.concat([sshString("ssh-ed25519"), sshString(pub)])
  // Any check number does; deterministic keeps the whole file a function of the seed.
  const check = createHash("sha256").update(seed).digest().readUInt32BE(0)
  let secret = Buffer.concat([
    u32(check),
    u32(check),
    sshString("ssh-ed25519"),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString("workbay-agent")
  ])
  const padding = (8 - (secret.length % 8)) % 8
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))])
  const body = Buffer.concat([
    Buffer.from("openssh-key-v1\0"),
    sshString("none"),
    sshString("none"),
    sshString(""),
    u32(1),
    sshString(publicBlob),
    sshString(secret)
  ]).toString("base64")
  const lines = body.match(/.{1,70}/g)!.join("\n")
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicKey: `ssh-ed25519 ${publicBlob.toString("base64")}`
  }
}

/** The host key of the agent whose token is `token`. */
export const hostKeyOf = (token: string) =>
  ed25519FromSeed(createHash("sha256").update(`workbay agent ssh host key\0${token}`).digest())
