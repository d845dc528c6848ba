/** Password strength rules. */
import { describe, expect, it } from "@effect/vitest"
import { NewPassword } from "@workbay/core"
import { Either, Schema } from "effect"
import { checkPassword, passwordEntropy } from "../../src/users/Passwords.js"

describe("passwordEntropy", () => {
  it("is zero for an empty password", () => {
    expect(passwordEntropy("")).toBe(0)
  })

  it("is length times log2 of the character-set size", () => {
    expect(passwordEntropy("abcdefgh")).toBeCloseTo(8 * Math.log2(26))
    expect(passwordEntropy("abcdEFGH")).toBeCloseTo(8 * Math.log2(52))
    expect(passwordEntropy("abcDEF12")).toBeCloseTo(8 * Math.log2(62))
    expect(passwordEntropy("abC1!")).toBeCloseTo(5 * Math.log2(95))
    expect(passwordEntropy("12345678")).toBeCloseTo(8 * Math.log2(10))
    expect(passwordEntropy("ééééé")).toBeGreaterThan(0)
  })

  it("discounts runs of three or more of the same character", () => {
    expect(passwordEntropy("aaaaaaaa")).toBeCloseTo(passwordEntropy("aa"))
    expect(passwordEntropy("abbbbc")).toBeCloseTo(passwordEntropy("abbc"))
    expect(passwordEntropy("aabb")).toBeCloseTo(4 * Math.log2(26))
  })

  it("grows with length and variety", () => {
    expect(passwordEntropy("abcdefghij")).toBeGreaterThan(passwordEntropy("abcdefgh"))
    expect(passwordEntropy("Abcdefgh")).toBeGreaterThan(passwordEntropy("abcdefgh"))
  })
})

describe("checkPassword", () => {
  it("accepts a long, varied password", () => {
    expect(checkPassword("Correct-Horse-Battery-9")).toEqual({ valid: true, details: "" })
    expect(checkPassword("xK9#mP2$vL")).toEqual({ valid: true, details: "" })
  })

  it("rejects fewer than 8 characters", () => {
    const result = checkPassword("Ab1!xyz")
    expect(result.valid).toBe(false)
    expect(result.details).toContain("at least 8")
  })

  it("rejects more than 64 characters", () => {
    expect(checkPassword("Aa1!".repeat(16)).valid).toBe(true)
    const result = checkPassword("Aa1!".repeat(16) + "x")
    expect(result.valid).toBe(false)
    expect(result.details).toContain("at most 64")
  })

  it("rejects low-entropy passwords", () => {
    for (const weak of ["password", "12345678", "aaaaaaaaaaaaaaaa", "abcdefghij"]) {
      const result = checkPassword(weak)
      expect(result.valid, weak).toBe(false)
      expect(result.details).toContain("too weak")
    }
  })

  it("NewPassword decodes strong passwords and fails weak ones with the rule's message", () => {
    expect(Schema.decodeUnknownEither(NewPassword)("Correct-Horse-Battery-9")).toEqual(
      Either.right("Correct-Horse-Battery-9")
    )
    const weak = Schema.decodeUnknownEither(NewPassword)("short")
    expect(Either.isLeft(weak)).toBe(true)
    if (Either.isLeft(weak)) expect(weak.left.message).toContain("at least 8")
  })
})
