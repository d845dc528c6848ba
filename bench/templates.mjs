// Template version imports (node bench/templates.mjs). Not a test: it measures and reports.
//
// A template of 100 parameters and 50 resources (10 of them with an agent, an app and a
// script), imported by the built-in `workbay` provisioner:
//   provisioner  `workbayProvisioner.import` alone (archive read, YAML parse, checks);
//   service      one import job run in-process (claim, provisioner, fresh ids, the stored
//                import result, its log lines, completion), on the service's runtime;
//   http         POST /organizations/{org}/templateversions, the job run as above, then
//                GET /templateversions/{id} until it has succeeded, over real HTTP.
// The service runs in this process on an in-memory SQLite database (the packages are bundled
// from source with esbuild first), and listens on 127.0.0.1 only.
//
// Options: --imports 50 (per measure) --parameters 100 --resources 50 --no-write
import { build } from "esbuild"
import { mkdirSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { loadavg } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { fmt, logger, machineLine, root } from "./lib.mjs"

const { values: opts } = parseArgs({
  options: {
    imports: { type: "string", default: "50" },
    parameters: { type: "string", default: "100" },
    resources: { type: "string", default: "50" },
    "no-write": { type: "boolean", default: false }
  }
})
const log = logger("templates")
const IMPORTS = Number(opts.imports)

/** The template: `p` parameters (a fifth with options, a fifth numbers with bounds), `r` resources. */
const templateYaml = (p, r) => {
  const lines = ["variables:", "  - { name: region, default: eu }", "parameters:"]
  for (let i = 0; i < p; i++) {
    if (i % 5 === 0) {
      lines.push(
        `  - name: choice_${i}`,
        `    default: a`,
        `    options: [{ name: A, value: a }, { name: B, value: b }]`
      )
    } else if (i % 5 === 1) {
      lines.push(`  - name: count_${i}`, `    type: number`, `    default: 2`, `    validation: { min: 1, max: 10 }`)
    } else {
      lines.push(
        `  - name: text_${i}`,
        `    display_name: Text ${i}`,
        `    description: The **${i}th** value.`,
        `    default: "v${i}"`,
        `    mutable: true`
      )
    }
  }
  lines.push("resources:")
  for (let i = 0; i < r; i++) {
    lines.push(
      `  - name: res_${i}`,
      `    type: thing`,
      `    daily_cost: 1`,
      `    metadata: [{ key: index, value: "${i}" }]`
    )
    if (i % 5 === 0) {
      lines.push(
        `    agents:`,
        `      - name: agent_${i}`,
        `        env: { REGION: "\${var.region}" }`,
        `        apps: [{ slug: app-${i}, url: "http://localhost:${8000 + i}" }]`,
        `        scripts: [{ display_name: Start, script: "echo \${param.text_2}", run_on_start: true }]`
      )
    }
  }
  return lines.join("\n") + "\n"
}

/** A ustar archive of one file. */
const tarOf = (name, content) => {
  const data = Buffer.from(content, "utf8")
  const header = Buffer.alloc(512)
  const octal = (n, w) => n.toString(8).padStart(w - 1, "0") + "\0"
  header.write(name, 0, 100, "utf8")
  header.write(octal(0o644, 8), 100, "ascii")
  header.write(octal(0, 8), 108, "ascii")
  header.write(octal(0, 8), 116, "ascii")
  header.write(octal(data.length, 12), 124, "ascii")
  header.write(octal(1_700_000_000, 12), 136, "ascii")
  header.write("        ", 148, "ascii")
  header.write("0", 156, "ascii")
  header.write("ustar\0", 257, "ascii")
  header.write("00", 263, "ascii")
  let sum = 0
  for (const b of header) sum += b
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii")
  return new Uint8Array(
    Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512), Buffer.alloc(1024)])
  )
}

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { median: at(0.5), p90: at(0.9), min: sorted[0], mean: ms.reduce((a, b) => a + b, 0) / ms.length }
}

const main = async () => {
  // Inside the repository, so the bundle finds better-sqlite3 in node_modules.
  const outdir = join(root, "node_modules/.cache/workbay-bench-templates")
  mkdirSync(outdir, { recursive: true })
  const startedAt = new Date()
  const load0 = loadavg()
  const bundle = join(outdir, "entry.cjs")
  await build({
    stdin: {
      contents:
        `export * from "@workbay/core"; export * as Http from "@workbay/http"; export * as Sqlite from "@workbay/storage-sqlite"; export { Effect } from "effect"`,
      resolveDir: root,
      loader: "ts"
    },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    outfile: bundle,
    conditions: ["@workbay/source"],
    external: ["better-sqlite3", "pg-native"],
    logLevel: "warning"
  })
  const W = await import(bundle)
  const { Effect } = W
  const yaml = templateYaml(Number(opts.parameters), Number(opts.resources))
  const archive = tarOf("template.yaml", yaml)
  log(
    `template: ${opts.parameters} parameters, ${opts.resources} resources, ${yaml.length} bytes of YAML, ${IMPORTS} imports per measure`
  )

  // 1. The provisioner alone.
  const provisioner = []
  for (let i = 0; i < IMPORTS + 3; i++) {
    const t0 = performance.now()
    const result = await Effect.runPromise(
      W.workbayProvisioner.import({ archive, content_type: "application/x-tar", variable_values: [] })
    )
    if (i >= 3) provisioner.push(performance.now() - t0)
    if (result.parameters.length !== Number(opts.parameters)) throw new Error("the import lost parameters")
  }

  // The service on an in-memory SQLite database, over real HTTP on 127.0.0.1.
  const workbay = await W.Http.makeWorkbay(W.Sqlite.layerMemory, {
    passwordHashCost: 4,
    hangDetector: false,
    retention: false,
    workers: false
  })
  const server = createServer(workbay.node)
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${server.address().port}/api/v2`
  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", ...headers, ...(token ? { "Service-Session-Token": token } : {}) },
      body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body)
    })
    const text = await res.text()
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  let token
  try {
    const first = await call("POST", "/users/first", {
      email: "bench@example.com",
      username: "bench",
      password: "Bench-Password-2024!x"
    })
    const orgId = first.body.organization_id
    token = (await call("POST", "/users/login", { email: "bench@example.com", password: "Bench-Password-2024!x" })).body
      .session_token
    const file = await call("POST", "/files", archive, { "content-type": "application/x-tar" })
    const create = () =>
      call("POST", `/organizations/${orgId}/templateversions`, {
        storage_method: "file",
        file_id: file.body.hash,
        provisioner: "workbay",
        tags: {}
      })
    const runJobs = () => workbay.run(W.Effect.flatMap(W.ProvisionerWorkers, (w) => w.drain()))

    // 2. One import job through the service (the version is created first, untimed).
    const service = []
    for (let i = 0; i < IMPORTS + 3; i++) {
      const v = await create()
      if (v.status !== 201) throw new Error(`create: ${v.status} ${JSON.stringify(v.body)}`)
      const t0 = performance.now()
      const done = await runJobs()
      if (i >= 3) service.push(performance.now() - t0)
      if (done.length !== 1 || done[0].error !== "") throw new Error(`import: ${JSON.stringify(done[0])}`)
    }

    // 3. Create, run, poll until succeeded, over HTTP.
    const http = []
    for (let i = 0; i < IMPORTS + 3; i++) {
      const t0 = performance.now()
      const v = await create()
      await runJobs()
      let got
      do got = await call("GET", `/templateversions/${v.body.id}`)
      while (got.body.job.status !== "succeeded" && got.body.job.status !== "failed")
      if (i >= 3) http.push(performance.now() - t0)
      if (got.body.job.status !== "succeeded") throw new Error(`import failed: ${got.body.job.error}`)
    }
    const v = await create()
    await runJobs()
    const reads = {}
    for (const what of ["rich-parameters", "resources"]) {
      const times = []
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now()
        const r = await call("GET", `/templateversions/${v.body.id}/${what}`)
        times.push(performance.now() - t0)
        if (r.status !== 200) throw new Error(`${what}: ${r.status}`)
      }
      reads[what] = stats(times)
    }

    const rows = [
      ["provisioner import alone", stats(provisioner)],
      ["import job through the service", stats(service)],
      ["HTTP create + job + poll", stats(http)],
      ["GET rich-parameters (100)", reads["rich-parameters"]],
      ["GET resources (50 + stop)", reads.resources]
    ]
    const table = [
      "| measure | median ms | p90 ms | min ms | mean ms |",
      "|---|---|---|---|---|",
      ...rows.map(([name, s]) =>
        `| ${name} | ${fmt(s.median, 2)} | ${fmt(s.p90, 2)} | ${fmt(s.min, 2)} | ${fmt(s.mean, 2)} |`
      )
    ].join("\n")
    const report = [
      "# Template imports",
      "",
      machineLine(startedAt, load0),
      "",
      `A template of ${opts.parameters} parameters and ${opts.resources} resources (every fifth with an agent, an app and a script), ` +
      `${yaml.length} bytes of YAML; ${IMPORTS} runs per measure after 3 warm-up runs; in-memory SQLite.`,
      "",
      table,
      ""
    ].join("\n")
    console.log(report)
    if (!opts["no-write"]) writeFileSync(join(root, "bench/results/templates.md"), report)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await workbay.dispose()
  }
}

await main()
