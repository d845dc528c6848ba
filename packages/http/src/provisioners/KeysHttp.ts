/** Handlers of the provisioner keys and the daemons' serve route: the socket is bridged to the core's protocol (`serveDaemon`). */
import {
  BadRequest,
  checkDaemonName,
  Forbidden,
  HOST_NAME,
  mutateTags,
  NIL_UUID,
  PROVISIONER_API_VERSION,
  PROVISIONER_KEY_HEADER,
  type ProvisionerDaemonServeQuery,
  ProvisionerKeys,
  serveDaemon,
  tagsMatch,
  Validation
} from "@workbay/core"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext } from "../RequestContext.js"
import { upgradeWebSocket } from "../WebSocket.js"

const KEY_HEADER = PROVISIONER_KEY_HEADER.toLowerCase()
const PROVISIONER_TYPE = /^[a-z0-9][a-z0-9_-]{0,63}$/
const SUPPORTED_API_MAJOR = "1"

export const ProvisionerKeysHttp = implement(WorkbayApi, "provisionerKeys", {
  create: ({ path, payload }) => Effect.flatMap(ProvisionerKeys, (k) => k.create(path.organization, payload)),
  list: ({ path }) => Effect.flatMap(ProvisionerKeys, (k) => k.list(path.organization)),
  listDaemons: ({ path }) => Effect.flatMap(ProvisionerKeys, (k) => k.listDaemons(path.organization)),
  delete: ({ path }) => Effect.flatMap(ProvisionerKeys, (k) => k.delete(path.organization, path.provisionerkey))
})

/** The daemon's announcement from the query: its types, tags, name and protocol version; 400 naming each bad field. */
const readQuery = (query: typeof ProvisionerDaemonServeQuery.Type) => {
  const problems: Array<Validation> = []
  const types = [
    ...new Set(
      [...(query.provisioner ?? []), ...(query.provisioners ?? [])].map((t) => t.trim()).filter((t) => t !== "")
    )
  ]
  if (types.length === 0) {
    problems.push(
      new Validation({ field: "provisioner", detail: "The provisioner query parameter must be specified." })
    )
  }
  const badTypes = types.filter((t) => !PROVISIONER_TYPE.test(t))
  if (badTypes.length > 0) {
    problems.push(
      new Validation({
        field: "provisioner",
        detail: `Invalid provisioner type ${
          badTypes.map((t) => `"${t}"`).join(", ")
        }: lower-case letters, digits, "_" and "-", at most 64.`
      })
    )
  }
  const tags: Record<string, string> = {}
  for (const tag of [...(query.tag ?? []), ...(query.tags ?? [])]) {
    const eq = tag.indexOf("=")
    if (eq <= 0) {
      problems.push(
        new Validation({
          field: "tag",
          detail: `Invalid format for tag "${tag}". Key and value must be separated with =.`
        })
      )
      break
    }
    tags[tag.slice(0, eq)] = tag.slice(eq + 1)
  }
  const apiVersion = query.version ?? PROVISIONER_API_VERSION
  if (!/^\d+\.\d+$/.test(apiVersion) || apiVersion.split(".")[0] !== SUPPORTED_API_MAJOR) {
    problems.push(
      new Validation({
        field: "version",
        detail: `Incompatible or unparsable version "${apiVersion}": this server speaks ${PROVISIONER_API_VERSION}.`
      })
    )
  }
  const host = query.host
  if (host !== undefined && !HOST_NAME.test(host)) {
    problems.push(
      new Validation({
        field: "host",
        detail: `Invalid host name "${host}": 1-64 letters, digits, ".", "_" and "-", starting with a letter or digit.`
      })
    )
  }
  return { problems, types, tags, apiVersion, host }
}

export const ProvisionerDaemonServeHttp = implement(WorkbayApi, "provisionerDaemonServe", {
  key: () =>
    Effect.flatMap(RequestContext, (ctx) => Effect.flatMap(ProvisionerKeys, (k) => k.fetch(ctx.header(KEY_HEADER)))),
  serve: ({ path, urlParams }) =>
    Effect.gen(function*() {
      const ctx = yield* RequestContext
      const keys = yield* ProvisionerKeys
      const key = yield* keys.authenticate(path.organization, ctx.header(KEY_HEADER))
      const { apiVersion, host, problems, tags, types } = readQuery(urlParams)
      if (problems.length > 0) {
        return yield* new BadRequest({ message: "Invalid provisioner daemon request.", validations: problems })
      }
      // A key fixes its daemons' tags, as in the described system: others given with it are refused.
      if (Object.keys(tags).length > 0 && !(tagsMatch(tags, key.tags) && tagsMatch(key.tags, tags))) {
        return yield* new Forbidden({
          message: "Tags are set by the provisioner key.",
          detail: `The key "${key.name}" gives its daemons the tags ${
            JSON.stringify(key.tags)
          }; send no tags, or exactly these.`
        })
      }
      const name = urlParams.name ?? `daemon-${randomBytes(4).toString("hex")}`
      yield* checkDaemonName(key.organization_id, name)
      const hello = {
        name,
        provisioners: types,
        tags: mutateTags(NIL_UUID, key.tags),
        version: ctx.header("coder-build-version") ?? "",
        api_version: apiVersion,
        key,
        host
      }
      return yield* upgradeWebSocket(
        (connection) =>
          serveDaemon({
            send: (text) => connection.send(text),
            receive: connection.receive,
            close: (code, reason) => connection.close(code, reason)
          }, hello), // Results (resources, state) may be as large as a template file.
        { largeMessages: true }
      )
    })
})
