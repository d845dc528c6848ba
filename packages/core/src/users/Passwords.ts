import { Schema } from "effect"

/** POST /users/validate-password: whether the password passes the strength rules, and why not. */
export const ValidateUserPasswordResponse = Schema.Struct({ valid: Schema.Boolean, details: Schema.String })

/**
 * Password strength, as the described system checks it: 8 to 64 characters and
 * at least 52 bits of estimated entropy (character-set size and length, with
 * repeated characters discounted).
 */
export type PasswordCheck = typeof ValidateUserPasswordResponse.Type

const MIN_LENGTH = 8
const MAX_LENGTH = 64
const MIN_ENTROPY = 52

/** Estimated entropy in bits of a password. */
export const passwordEntropy = (password: string): number => {
  let base = 0
  if (/[a-z]/.test(password)) base += 26
  if (/[A-Z]/.test(password)) base += 26
  if (/[0-9]/.test(password)) base += 10
  if (/[ !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/.test(password)) base += 33
  if (/[^\x20-\x7e]/.test(password)) base += 32
  // Runs of the same character add little: count each run of 3+ as 2 characters.
  const effectiveLength = password.replace(/(.)\1{2,}/g, "$1$1").length
  return base === 0 ? 0 : effectiveLength * Math.log2(base)
}

/** Checks a password against the strength rules. */
export const checkPassword = (password: string): PasswordCheck => {
  if (password.length < MIN_LENGTH) {
    return { valid: false, details: `Password must be at least ${MIN_LENGTH} characters.` }
  }
  if (password.length > MAX_LENGTH) {
    return { valid: false, details: `Password must be at most ${MAX_LENGTH} characters.` }
  }
  if (passwordEntropy(password) < MIN_ENTROPY) {
    return {
      valid: false,
      details: "Password is too weak: use a longer password or mix upper and lower case letters, digits and symbols."
    }
  }
  return { valid: true, details: "" }
}

/** A new password: fails decoding with the strength rule's message. */
export const NewPassword = Schema.String.pipe(
  Schema.filter((p) => {
    const check = checkPassword(p)
    return check.valid || check.details
  })
)
