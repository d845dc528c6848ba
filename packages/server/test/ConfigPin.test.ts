/**
 * Pins the server's configuration surface as a whole: the `--help` text, what every flag and
 * variable does with a handful of probe values (the value it yields or the error it gives), and
 * how each given setting reaches `/deployment/config`. Written before the settings table was
 * made one declaration per setting, so that the flags, variables, help and options derived from
 * it stay what they were.
 */
import { defaultSettings, deploymentConfig } from "@workbay/core"
import { describe, expect, it } from "vitest"
import { helpText, loadConfig, options } from "../src/index.js"
import { workbaySettings } from "../src/WorkbaySettings.js"

/** Values tried on every flag and variable: one of each kind the flags take, and some that fit none. */
const PROBES = [
  "",
  "true",
  "maybe",
  "0",
  "-1",
  "7",
  "30s",
  "90d",
  "a,b",
  "{\"a\":\"b\"}",
  "[{\"name\":\"x\",\"target\":\"https://t.example\",\"icon\":\"bug\"}]",
  "https://x.example",
  "127.0.0.1:2112",
  "webhook",
  "normal",
  "json",
  "/nonexistent/file"
]

/** Stable text of a configuration: working folder and absolute paths made portable. */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null, (_k, v) => typeof v === "string" ? v.replaceAll(process.cwd(), "<cwd>") : v))

const baseline = plain(loadConfig([], {})) as Record<string, unknown>

/** The top-level fields of the configuration that differ from the one with nothing given. */
const changed = (argv: ReadonlyArray<string>, env: Record<string, string>): unknown => {
  try {
    const config = plain(loadConfig(argv, env)) as Record<string, unknown>
    return Object.fromEntries(
      Object.keys(config).filter((k) => JSON.stringify(config[k]) !== JSON.stringify(baseline[k])).map((k) => [
        k,
        config[k]
      ])
    )
  } catch (e) {
    return `error: ${(e as Error).message.replaceAll(process.cwd(), "<cwd>")}`
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

const optionsOf = (argv: ReadonlyArray<string>, env: Record<string, string>) =>
  deploymentConfig({ ...defaultSettings, ...workbaySettings(loadConfig(argv, env)) })

describe("the server's configuration surface (pinned)", () => {
  it("--help", () => {
    expect(helpText()).toMatchSnapshot()
  })

  it("each flag and variable with each probe value", () => {
    const seen: Record<string, unknown> = {}
    for (const o of options) {
      // Probes grouped by what they give, by flag then by variable.
      const byResult = new Map<string, Array<string>>()
      for (const probe of PROBES) {
        for (
          const [by, result] of [["flag", changed([`--${o.flag}`, probe], {})], [
            "env",
            changed([], { [o.env]: probe })
          ]]
        ) {
          const key = JSON.stringify(result)
          byResult.set(key, [...(byResult.get(key) ?? []), `${by} ${JSON.stringify(probe)}`])
        }
      }
      seen[`--${o.flag} ${o.env}`] = [...byResult].map(([result, probes]) => `${probes.join(", ")} => ${result}`)
    }
    expect(seen).toMatchSnapshot()
  })

  it("the deployment config with nothing given (beside the library's default one)", () => {
    const library = deploymentConfig(defaultSettings)
    const got = optionsOf([], {})
    expect({
      config: Object.fromEntries(
        Object.keys(got.config).filter((k) => !same(got.config[k], library.config[k])).map((k) => [k, got.config[k]])
      ),
      options: got.options.filter((o, i) => !same(o, library.options[i]))
    }).toMatchSnapshot()
    expect(got.options.map((o) => o.name)).toEqual(library.options.map((o) => o.name))
  })

  it("each flag's first accepted probe value, as the deployment config reports it", () => {
    const base = optionsOf([], {})
    const baseOptions = new Map(base.options.map((o) => [o.name, JSON.stringify(o)]))
    const seen: Record<string, unknown> = {}
    for (const o of options) {
      for (
        const [label, argv, env] of [
          ["flag", (p: string) => [`--${o.flag}`, p], () => ({})],
          ["env", () => [], (p: string) => ({ [o.env]: p })]
        ] as const
      ) {
        const probe = PROBES.find((p) => p !== "" && typeof changed(argv(p), env(p)) !== "string")
        if (probe === undefined) continue
        let config
        try {
          config = optionsOf(argv(probe), env(probe))
        } catch (e) {
          seen[`--${o.flag} (${label}) ${probe}`] = `error: ${(e as Error).message}`
          continue
        }
        seen[`--${o.flag} (${label}) ${probe}`] = {
          config: Object.fromEntries(
            Object.keys({ ...config.config, ...base.config }).filter((k) =>
              JSON.stringify(config.config[k]) !== JSON.stringify(base.config[k])
            ).map((k) => [k, config.config[k] ?? "(absent)"])
          ),
          options: config.options.flatMap((d) => {
            const before = JSON.parse(baseOptions.get(d.name!) ?? "{}") as Record<string, unknown>
            const fields = Object.entries(d).filter(([k, v]) => !same(v, before[k]))
            return fields.length === 0 ? [] : [{ name: d.name, ...Object.fromEntries(fields) }]
          })
        }
      }
    }
    expect(plain(seen)).toMatchSnapshot()
  })
})
