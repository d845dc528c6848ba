/** The built-in `workbay` provisioner: import and build of template.yaml archives, without HTTP or a database. */
import { describe, expect, it } from "@effect/vitest"
import {
  type BuildInput,
  type ImportInput,
  makeWorkbayProvisioner,
  type ProvisionerLog,
  REQUIRED_TEMPLATE_VARIABLES,
  workbayProvisioner
} from "@workbay/core"
import { Effect, Fiber, Option, TestClock } from "effect"
import { readFileSync } from "node:fs"
import { bytes, tarOf, zipOf } from "./archives.js"

const fullTemplate = readFileSync(new URL("./full-template.yaml", import.meta.url), "utf8")
const TAR = "application/x-tar"

const tar = (files: Record<string, string | Uint8Array>) => Effect.promise(() => tarOf(files))

/**
 * An import, with the test clock moved past the template's `build.delay_ms` waits (imports honour
 * them). Moved again until the import ends: it reads the archive (real I/O) before its first wait,
 * and a single move made before that wait began would leave it waiting for ever on a busy machine.
 */
const importOf = (archive: Uint8Array, variable_values: ImportInput["variable_values"] = [], content_type = TAR) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(workbayProvisioner.import({ archive, content_type, variable_values }))
    while (Option.isNone(yield* Fiber.poll(fiber))) {
      yield* TestClock.adjust("1 hour")
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    }
    return yield* Fiber.join(fiber)
  })

const buildOf = (archive: Uint8Array, input: Partial<BuildInput> = {}) =>
  workbayProvisioner.build({
    archive,
    content_type: TAR,
    transition: "start",
    variable_values: [{ name: "region", value: "eu" }],
    parameter_values: [{ name: "repo", value: "github.com/acme/app" }],
    previous_state: new Uint8Array(),
    workspace: { id: "w-1", name: "dev-box", owner: "alice" },
    agentToken: (name) => Effect.succeed(`token-of-${name}`),
    ...input
  })

/** The failure message of an import of a one-file archive holding `text` as `name`. */
const importFailure = (text: string, name = "template.yaml") =>
  Effect.gen(function*() {
    const archive = yield* tar({ [name]: text })
    return yield* Effect.flip(importOf(archive))
  })

describe("workbay provisioner: import", () => {
  it.effect("reads a template with every key", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate, "README.md": "hello" })
      const result = yield* importOf(archive, [{ name: "region", value: "eu" }])

      expect(result.variables.map((v) => [v.name, v.type, v.value, v.required, v.sensitive])).toEqual([
        ["region", "string", "eu", true, false],
        ["cpu_limit", "number", "4", false, false],
        ["api_token", "string", "", false, true]
      ])
      const [image, disk, dotfiles, repo] = result.parameters
      expect(image).toEqual({
        name: "image",
        display_name: "Image",
        description: "The container image.",
        type: "string",
        mutable: true,
        ephemeral: false,
        default_value: "ubuntu",
        icon: "/icon/docker.svg",
        order: 1,
        options: [
          { name: "Ubuntu", value: "ubuntu", description: "Ubuntu 24.04", icon: "/icon/ubuntu.svg" },
          { name: "Debian", value: "debian", description: "", icon: "" }
        ],
        validation_regex: "^[a-z]+$",
        validation_error: "Lowercase letters only.",
        validation_min: undefined,
        validation_max: undefined,
        validation_monotonic: "",
        required: false
      })
      expect([disk?.validation_min, disk?.validation_max, disk?.validation_monotonic, disk?.default_value]).toEqual([
        5,
        100,
        "increasing",
        "10"
      ])
      expect([dotfiles?.type, dotfiles?.default_value, dotfiles?.ephemeral]).toEqual([
        "list(string)",
        "[\"vim\"]",
        true
      ])
      expect([repo?.required, repo?.default_value]).toEqual([true, ""])

      expect(result.presets).toEqual([
        {
          name: "Small",
          default: true,
          parameters: [{ name: "image", value: "debian" }, { name: "disk_gb", value: "20" }],
          prebuild: { instances: 2 }
        },
        { name: "Large", default: false, parameters: [{ name: "disk_gb", value: "80" }], prebuild: undefined }
      ])
      expect(result.external_auth_providers).toEqual([{ id: "github", optional: false }, {
        id: "gitlab",
        optional: true
      }])
      expect([result.has_ai_task, result.ai_task_app_slug, result.has_external_agent]).toEqual([true, "claude", true])

      const [start, stop] = result.resources
      expect(start?.transition).toBe("start")
      expect(start?.resources.map((r) => r.name)).toEqual(["home", "dev", "laptop"])
      expect(stop?.resources.map((r) => r.name)).toEqual(["home"])
      const dev = start!.resources[1]!
      // Before any workspace exists: parameter defaults, empty workspace fields.
      expect(dev.metadata).toEqual([
        { key: "image", value: "ubuntu", sensitive: false },
        { key: "token", value: "", sensitive: true },
        { key: "literal", value: "${param.image}", sensitive: false }
      ])
      const agent = dev.agents[0]!
      expect(agent.display_apps).toEqual({
        vscode: false,
        vscode_insiders: true,
        web_terminal: true,
        ssh_helper: false,
        port_forwarding_helper: true
      })
      expect(agent.apps.map((a) => [a.slug, a.display_name, a.order])).toEqual([
        ["code-server", "VS Code", 0],
        ["claude", "claude", 1],
        ["docs", "docs", 2]
      ])
      expect(agent.apps[0]?.healthcheck).toEqual({ url: "http://localhost:8080/healthz", interval: 5, threshold: 6 })
      expect(agent.scripts[0]).toEqual({
        display_name: "Install",
        script: "echo installing ubuntu",
        cron: "",
        run_on_start: true,
        run_on_stop: false,
        start_blocks_login: true,
        timeout_seconds: 60,
        log_path: "/tmp/install.log"
      })

      expect(result.logs.map((l) => l.output)).toContain("Pulling ${param.image}")
      expect(result.logs.every((l) => l.level === "info" && l.created_at instanceof Date)).toBe(true)
    }))

  it.effect("reads a JSON template, from a zip, inside a single top-level folder", () =>
    Effect.gen(function*() {
      const json = JSON.stringify({
        parameters: [{ name: "size", type: "number", default: 3 }],
        resources: [{ name: "box", type: "vm", daily_cost: 2, agents: [{ name: "main" }] }]
      })
      const result = yield* importOf(zipOf({ "my-template/template.json": json }), [], "application/zip")
      expect(result.parameters.map((p) => [p.name, p.default_value, p.required])).toEqual([["size", "3", false]])
      expect(result.resources[0]?.resources[0]?.agents[0]?.operating_system).toBe("linux")
    }))

  it.effect("fails with REQUIRED_TEMPLATE_VARIABLES when a required variable has no value", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate })
      const error = yield* Effect.flip(importOf(archive))
      expect(error.error_code).toBe(REQUIRED_TEMPLATE_VARIABLES)
      expect(error.message).toBe("Required template variables need values: region.")
      expect(error.logs.at(-1)).toMatchObject({ level: "error", output: error.message })
    }))

  it.effect("a variable with a default is not required unless it says so", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": "variables:\n  - name: a\n    default: x\n  - name: b\n" })
      const error = yield* Effect.flip(importOf(archive))
      expect(error.message).toBe("Required template variables need values: b.")
      const ok = yield* importOf(archive, [{ name: "b", value: "" }])
      expect(ok.variables.map((v) => [v.name, v.value, v.required])).toEqual([["a", "x", false], ["b", "", true]])
    }))

  it.effect("names the file and line of malformed YAML", () =>
    Effect.gen(function*() {
      const error = yield* importFailure("resources:\n  - name: a\n    type: [x\n  - name: b\n")
      expect(error.message).toMatch(/^template\.yaml:4: /)
      const dup = yield* importFailure("variables: []\nvariables: []\n")
      expect(dup.message).toBe("template.yaml:2: Map keys must be unique")
    }))

  it.effect("names the line and key path of a value of the wrong type", () =>
    Effect.gen(function*() {
      const error = yield* importFailure([
        "resources:",
        "  - name: dev",
        "    type: container",
        "    agents:",
        "      - name: main",
        "      - name: second",
        "        apps:",
        "          - slug: 42",
        ""
      ].join("\n"))
      expect(error.message).toBe(
        "template.yaml:8: key resources[0].agents[1].apps[0].slug: must be a slug of lowercase letters, digits and single \"-\" between them"
      )
      const cost = yield* importFailure("resources:\n  - name: a\n    type: b\n    daily_cost: lots\n")
      expect(cost.message).toBe("template.yaml:4: key resources[0].daily_cost: must be a whole number, 0 or more")
    }))

  it.effect("refuses an unknown key, naming it", () =>
    Effect.gen(function*() {
      const error = yield* importFailure("parameters:\n  - name: a\n    default: x\n    colour: red\n")
      expect(error.message).toBe("template.yaml:4: key parameters[0].colour: is not a known key")
      const top = yield* importFailure("{\"resource\": []}", "template.json")
      expect(top.message).toBe("template.json:1: key resource: is not a known key")
    }))

  it.effect("reports a missing key, every problem on its own line, and rules the schema cannot say", () =>
    Effect.gen(function*() {
      const missing = yield* importFailure("resources:\n  - name: a\n")
      expect(missing.message).toBe("template.yaml:2: key resources[0].type: is required")
      const several = yield* importFailure([
        "parameters:",
        "  - name: a",
        "    type: number",
        "    default: ten",
        "  - name: a",
        "    options: [{ name: X, value: x }]",
        "    default: y",
        "ai_task: { app: nope }",
        "build: { logs: [\"${param.missing}\"] }",
        ""
      ].join("\n"))
      expect(several.message.split("\n")).toEqual([
        "template.yaml:4: key parameters[0].default: must be a number",
        "template.yaml:5: key parameters[1].name: the parameter name \"a\" is used twice",
        "template.yaml:7: key parameters[1].default: \"y\" is not one of the options",
        "template.yaml:8: key ai_task.app: \"nope\" is not the slug of an app of this template",
        "template.yaml:9: key build.logs[0]: refers to ${param.missing}, which is not a parameter, a variable, a workspace or a task field"
      ])
    }))

  it.effect("refuses a validation pattern that is not RE2 syntax, and matches the default as Go's regexp does", () =>
    Effect.gen(function*() {
      const lookahead = yield* importFailure(
        "parameters:\n  - name: a\n    default: x\n    validation: { regex: \"^(?=x)\" }\n"
      )
      expect(lookahead.message).toBe(
        "template.yaml:4: key parameters[0].validation.regex: is not a valid regular expression (RE2 syntax)"
      )
      const unanchored = yield* importFailure(
        "parameters:\n  - name: a\n    default: xyz\n    validation: { regex: \"q\", error: No q. }\n"
      )
      expect(unanchored.message).toBe("template.yaml:3: key parameters[0].default: No q.")
    }))

  it.effect("refuses an agent's metadata key used twice, and a metadata item without a script", () =>
    Effect.gen(function*() {
      const twice = yield* importFailure([
        "resources:",
        "  - name: box",
        "    type: machine",
        "    agents:",
        "      - name: main",
        "        metadata:",
        "          - { key: load, script: uptime }",
        "          - { key: load, script: cat /proc/loadavg }",
        ""
      ].join("\n"))
      expect(twice.message).toContain("key resources[0].agents[0].metadata[1].key:")
      const noScript = yield* importFailure(
        "resources:\n  - name: box\n    type: machine\n    agents:\n      - name: main\n        metadata:\n          - { key: load }\n"
      )
      expect(noScript.message).toContain("key resources[0].agents[0].metadata[0].script: is required")
    }))

  it.effect("fails without a template file, and on an empty one", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "main.tf": "resource {}" })
      const error = yield* Effect.flip(importOf(archive))
      expect(error.message).toBe("The archive has no template.yaml (nor template.yml or template.json) at its root.")
      const empty = yield* importFailure("# nothing\n", "template.yml")
      expect(empty.message).toBe("template.yml: the template is empty.")
    }))

  it.effect("fails on an archive entry that leaves the archive", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": "{}", "../evil.sh": "rm -rf /" })
      const error = yield* Effect.flip(importOf(archive))
      expect(error.message).toBe(`The archive entry "../evil.sh" points outside the archive.`)
    }))

  it.effect("fails on a zip bomb, within its bounds", () =>
    Effect.gen(function*() {
      const provisioner = makeWorkbayProvisioner({ archiveLimits: { maxFiles: 100, maxExpandedBytes: 1024 * 1024 } })
      const bomb = zipOf({ "template.yaml": "{}", "big.bin": new Uint8Array(4 * 1024 * 1024) })
      const error = yield* Effect.flip(
        provisioner.import({ archive: bomb, content_type: "application/zip", variable_values: [] })
      )
      expect(error.message).toBe("The archive expands to more than 1048576 bytes.")
    }))

  it.effect("streams its logs to the sink as they happen", () =>
    Effect.gen(function*() {
      const seen: Array<ProvisionerLog> = []
      const archive = yield* tar({ "template.yaml": "build: { logs: [one, two] }" })
      const result = yield* workbayProvisioner.import({
        archive,
        content_type: TAR,
        variable_values: [],
        onLog: (log) => Effect.sync(() => seen.push(log))
      })
      expect(seen).toEqual(result.logs)
      expect(seen.map((l) => l.stage)).toContain("Detecting persistent resources")
    }))
})

describe("workbay provisioner: build", () => {
  it.effect("substitutes parameters, variables and workspace fields", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate })
      const fiber = yield* Effect.fork(
        buildOf(archive, {
          parameter_values: [{ name: "repo", value: "acme/app" }, { name: "image", value: "debian" }]
        })
      )
      yield* TestClock.adjust("3 seconds")
      const result = yield* Fiber.join(fiber)
      const dev = result.resources.find((r) => r.name === "dev")!
      expect(dev.metadata[0]).toEqual({ key: "image", value: "debian", sensitive: false })
      const agent = dev.agents[0]!
      expect(agent.directory).toBe("/home/alice")
      expect(agent.env).toEqual({ WORKSPACE: "dev-box", REGION: "eu", CPUS: "2" })
      expect(agent.apps[1]?.command).toBe("claude --repo acme/app")
      expect(result.resources.find((r) => r.name === "home")?.metadata[0]?.value).toBe("10 GB")
      expect(result.logs.filter((l) => l.stage === "Starting workspace").map((l) => l.output)).toEqual([
        "Pulling debian",
        "Starting dev-box"
      ])
    }))

  it.effect("answers the resources of the transition, their daily cost, external agents and AI tasks", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate })
      const run = (transition: BuildInput["transition"]) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(buildOf(archive, { transition }))
          yield* TestClock.adjust("3 seconds")
          return yield* Fiber.join(fiber)
        })
      const start = yield* run("start")
      expect(start.resources.map((r) => r.name)).toEqual(["home", "dev", "laptop"])
      expect([start.daily_cost, start.has_external_agent, start.has_ai_task]).toEqual([6, true, true])
      const stop = yield* run("stop")
      expect(stop.resources.map((r) => r.name)).toEqual(["home"])
      expect([stop.daily_cost, stop.has_external_agent, stop.has_ai_task]).toEqual([1, false, false])
      expect(JSON.parse(new TextDecoder().decode(stop.state))).toEqual({
        format: "workbay/1",
        build_number: 1,
        transition: "stop",
        resources: [{ type: "workbay_volume", name: "home" }]
      })
    }))

  it.effect("counts builds in its state", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": "resources: [{ name: a, type: b }]" })
      const first = yield* buildOf(archive, { parameter_values: [] })
      const second = yield* buildOf(archive, { parameter_values: [], previous_state: first.state })
      expect(JSON.parse(new TextDecoder().decode(second.state)).build_number).toBe(2)
    }))

  it.effect("fails with build.fail.message when its transition matches", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate })
      const fiber = yield* Effect.fork(Effect.flip(buildOf(archive, { transition: "delete" })))
      yield* TestClock.adjust("3 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error.message).toBe("Cannot delete dev-box today.")
      expect(error.logs.map((l) => l.output)).toContain("Starting dev-box")
      expect(error.logs.at(-1)).toMatchObject({ level: "error", stage: "Destroying workspace" })
    }))

  it.effect("fails when a required parameter has no value", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": fullTemplate })
      const error = yield* Effect.flip(buildOf(archive, { parameter_values: [] }))
      expect(error.message).toBe("Parameter \"repo\" is required and has no value.")
    }))

  it.effect("waits delay_ms before each log line and before answering, on Effect's clock", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const archive = yield* tar({ "template.yaml": "build: { logs: [one, two], delay_ms: 1000 }" })
      const fiber = yield* Effect.fork(buildOf(archive, {
        parameter_values: [],
        onLog: (log) => Effect.sync(() => seen.push(log.output))
      }))
      yield* TestClock.adjust("999 millis")
      expect(seen).not.toContain("one")
      yield* TestClock.adjust("1 millis")
      expect(seen).toContain("one")
      expect(seen).not.toContain("two")
      yield* TestClock.adjust("1 second")
      expect(seen).toContain("two")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      const result = yield* Fiber.join(fiber)
      expect(result.logs.find((l) => l.output === "two")?.created_at.getTime()).toBe(2000)
    }))

  it.effect("an import waits delay_ms before each log line and before answering, as a build does", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const archive = yield* tar({ "template.yaml": "build: { logs: [one], delay_ms: 1000 }" })
      const fiber = yield* Effect.fork(workbayProvisioner.import({
        archive,
        content_type: TAR,
        variable_values: [],
        onLog: (log) => Effect.sync(() => seen.push(log.output))
      }))
      yield* TestClock.adjust("999 millis")
      expect(seen).not.toContain("one")
      yield* TestClock.adjust("1 millis")
      expect(seen).toContain("one")
      yield* TestClock.adjust("999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const result = yield* Fiber.join(fiber)
      expect(result.logs.map((l) => l.output)).toContain("one")
    }))

  it.effect("import_delay_ms replaces delay_ms for the import only", () =>
    Effect.gen(function*() {
      const archive = yield* tar({ "template.yaml": "build: { logs: [one], delay_ms: 600000, import_delay_ms: 0 }" })
      const result = yield* workbayProvisioner.import({ archive, content_type: TAR, variable_values: [] })
      expect(result.logs.map((l) => l.output)).toContain("one")
    }))

  it.effect("never dies on bytes that are no archive", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(buildOf(bytes("not an archive at all"), { parameter_values: [] }))
      expect(error._tag).toBe("ProvisionerFailure")
      expect(error.message).toMatch(/^The archive is not a readable tar file/)
    }))
})

describe("workbay provisioner: docs and examples", () => {
  it.effect("imports the complete example of docs/templates.md, the same as the fixture", () =>
    Effect.gen(function*() {
      const page = readFileSync(new URL("../../../../docs/templates.md", import.meta.url), "utf8")
      const example = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? ""
      expect(example).toBe(fullTemplate.split("\n").slice(1).join("\n"))
      const result = yield* importOf(yield* tar({ "template.yaml": example }), [{ name: "region", value: "eu" }])
      expect(result.parameters).toHaveLength(4)
    }))

  it.effect("builds examples/templates/basic", () =>
    Effect.gen(function*() {
      const text = readFileSync(new URL("../../../../examples/templates/basic/template.yaml", import.meta.url), "utf8")
      const archive = yield* tar({ "template.yaml": text })
      const imported = yield* importOf(archive)
      expect(imported.parameters.map((p) => [p.name, p.required])).toEqual([["repo", false], ["cpus", false]])
      const fiber = yield* Effect.fork(buildOf(archive, { parameter_values: [{ name: "cpus", value: "4" }] }))
      yield* TestClock.adjust("2 seconds")
      const built = yield* Fiber.join(fiber)
      expect([built.daily_cost, built.has_external_agent]).toEqual([5, true])
      expect(built.resources[1]?.agents[0]?.directory).toBe("~/workbay/dev-box")
    }))
})

describe("workbay provisioner: hostile templates", () => {
  it.effect("fails, never dies, on deep nesting, alias bombs and huge values", () =>
    Effect.gen(function*() {
      const deep = yield* importFailure("resources: " + "[".repeat(20_000))
      expect(deep.message).toBe("template.yaml:1: brackets nest deeper than 64 levels.")
      const unclosed = yield* importFailure(Array.from({ length: 2000 }, (_, i) => `k${i}: [[[[`).join("\n"))
      expect(unclosed.message).toBe("template.yaml:17: brackets nest deeper than 64 levels.")
      const block = yield* importFailure(
        "a:\n" + Array.from({ length: 300 }, (_, i) => " ".repeat(i) + "- ").join("\n")
      )
      expect(block.message).toBe("template.yaml:259: the line is indented more than 256 columns.")
      const compact = yield* importFailure("a:\n  " + "- ".repeat(2000) + "x")
      expect(compact.message).toBe("template.yaml:2: lists nest deeper than 64 levels.")
      const big = yield* importFailure("# " + "x".repeat(300 * 1024))
      expect(big.message).toBe("template.yaml: the file is larger than 262144 bytes.")
      const aliases = yield* importFailure(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
      )
      expect(aliases.message).toMatch(/^template\.yaml: Excessive alias count/)
      const huge = yield* importFailure(`parameters:\n  - name: "${"x!".repeat(100_000)}"\n`)
      expect(huge.message.length).toBeLessThanOrEqual(400)
      expect(huge.message).toMatch(/^template\.yaml:2: key parameters\[0\]\.name: must be a name/)
    }))
})
