/**
 * Pins `GET /deployment/config` as the library computes it: the whole answer for the default
 * settings, and what changes in it when each setting alone is given another value (by an
 * embedder, then with each source). Written before the options were derived from the one
 * settings table, so that the answer stays what it was.
 */
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { defaultSettings, deploymentConfig, type SettingsShape } from "../../src/index.js"

/** Another value of the same shape as `value`. */
const another = (value: unknown): unknown => {
  if (typeof value === "string") return value === "" ? "x-custom" : `${value}-custom`
  if (typeof value === "boolean") return !value
  if (typeof value === "number") return value + 7
  if (Duration.isDuration(value)) return Duration.sum(value, Duration.millis(90_061_001))
  if (Array.isArray(value)) return ["a", "b"]
  if (value === null) return null
  return { k: "v" }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** What differs between the answer for `settings` and the default answer. */
const diff = (settings: SettingsShape) => {
  const base = deploymentConfig(defaultSettings)
  const got = deploymentConfig(settings)
  const baseOptions = new Map(base.options.map((o) => [o.name, o]))
  return {
    config: Object.fromEntries(
      Object.keys({ ...got.config, ...base.config }).filter((k) => !same(got.config[k], base.config[k])).map((
        k
      ) => [k, got.config[k] ?? "(absent)"])
    ),
    options: got.options.flatMap((o) => {
      const before = (baseOptions.get(o.name) ?? {}) as Record<string, unknown>
      const fields = Object.entries(o).filter(([k, v]) => !same(v, before[k]))
      const gone = Object.keys(before).filter((k) => !(k in o)).map((k) => [k, "(absent)"])
      return fields.length + gone.length === 0 ? [] : [{ name: o.name, ...Object.fromEntries([...fields, ...gone]) }]
    })
  }
}

describe("deployment config (pinned)", () => {
  it("for the default settings", () => {
    expect(deploymentConfig(defaultSettings)).toMatchSnapshot()
  })

  it("for each setting given another value", () => {
    const seen: Record<string, unknown> = {}
    for (const key of Object.keys(defaultSettings) as Array<keyof SettingsShape>) {
      if (key === "valueSources" || key === "relayMap" || key === "externalAuth") continue
      seen[key] = diff({ ...defaultSettings, [key]: another(defaultSettings[key]) })
    }
    expect(JSON.parse(JSON.stringify(seen))).toMatchSnapshot()
  })

  it("for each setting's source", () => {
    const seen: Record<string, unknown> = {}
    for (const key of Object.keys(defaultSettings)) {
      for (const source of ["flag", "env", "yaml", "default"] as const) {
        const d = diff({ ...defaultSettings, valueSources: { [key]: source } })
        if (d.options.length > 0 || Object.keys(d.config).length > 0) seen[`${key} ${source}`] = d
      }
    }
    expect(JSON.parse(JSON.stringify(seen))).toMatchSnapshot()
  })

  it("with external auth providers (client secrets never shown)", () => {
    const settings: SettingsShape = {
      ...defaultSettings,
      externalAuth: [
        { type: "github", client_id: "cid", client_secret: "never-shown" },
        {
          type: "gitlab",
          id: "corp",
          client_id: "c2",
          client_secret: "hidden-too",
          regex: "^gitlab\\.corp",
          scopes: ["read", "write"]
        }
      ] as never
    }
    const answer = deploymentConfig(settings)
    expect(JSON.stringify(answer)).not.toContain("never-shown")
    expect(diff(settings)).toMatchSnapshot()
  })
})
