/** Test support: API calls against a server process, and a template whose builds run long. */
import { tar, upload } from "../../http/test/templates/archives.js"

export const SESSION_HEADER = "Service-Session-Token"

/** A JSON call as the holder of `token`: status and parsed body. */
export const call = async (url: string, token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}/api/v2${path}`, {
    method,
    headers: { "content-type": "application/json", [SESSION_HEADER]: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await res.text()
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
}

const must = async (p: Promise<{ status: number; body: any }>, what: string) => {
  const r = await p
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

export const until = async <T>(read: () => Promise<T>, ok: (t: T) => boolean, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const v = await read()
    if (ok(v) || Date.now() > end) return v
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A template in the first organization whose builds take `delayMs` (imported by the server's workers). */
export const slowTemplate = (url: string, token: string, delayMs: number) =>
  makeTemplate(
    url,
    token,
    `resources:\n  - name: box\n    type: machine\nbuild:\n  delay_ms: ${delayMs}\n  import_delay_ms: 0\n  logs: ["Slow start"]\n`
  )

/** A template of `yaml` in the first organization (imported by the server's workers). */
export const makeTemplate = async (url: string, token: string, yaml: string) => {
  const file = await upload(url, token, tar([{ name: "template.yaml", content: yaml }]))
  if (file.status >= 300) throw new Error(`upload: ${file.status}`)
  const orgs = await must(call(url, token, "GET", "/organizations"), "organizations")
  const orgId = orgs[0].id as string
  const version = await must(
    call(url, token, "POST", `/organizations/${orgId}/templateversions`, {
      storage_method: "file",
      file_id: file.body.hash,
      provisioner: "workbay",
      tags: {}
    }),
    "template version"
  )
  const imported = await until(
    () => call(url, token, "GET", `/templateversions/${version.id}`),
    (r) => ["succeeded", "failed"].includes(r.body.job.status)
  )
  if (imported.body.job.status !== "succeeded") throw new Error(`import: ${JSON.stringify(imported.body.job)}`)
  const template = await must(
    call(url, token, "POST", `/organizations/${orgId}/templates`, {
      name: `slow-${Math.random().toString(36).slice(2, 8)}`,
      template_version_id: version.id
    }),
    "template"
  )
  return { orgId, templateId: template.id as string }
}

/** Creates a workspace of `templateId`; answers it once its first build's job runs. */
export const runningBuild = async (url: string, token: string, orgId: string, templateId: string) => {
  const ws = await must(
    call(url, token, "POST", `/organizations/${orgId}/members/me/workspaces`, {
      name: `ws-${Math.random().toString(36).slice(2, 8)}`,
      template_id: templateId
    }),
    "workspace"
  )
  const running = await until(
    () => call(url, token, "GET", `/workspaces/${ws.id}`),
    (r) => r.body.latest_build.job.status === "running"
  )
  if (running.body.latest_build.job.status !== "running") {
    throw new Error(`build: ${JSON.stringify(running.body.latest_build.job)}`)
  }
  return running.body as { id: string; latest_build: { id: string; job: { id: string; status: string } } }
}
