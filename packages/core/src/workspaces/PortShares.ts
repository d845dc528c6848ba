/**
 * The PortShares service: which ports of a workspace's agents are open to more than its owner.
 * Reading needs `read` on the workspace; sharing and unsharing need `update` (as the described
 * system's authorization layer asks). A share's level is bounded by the template's
 * `max_port_share_level`, and its agent must be one of the workspace's latest build.
 */
import { Effect, Layer, Option } from "effect"
import { authorize, authorizeRead, authorizeVisible } from "../Actor.js"
import { auditResource } from "../Audit.js"
import { BadRequest, NotFound, Validation } from "../Errors.js"
import { isUuid } from "../Ids.js"
import { TemplateRepo } from "../templates/Template.js"
import { TemplateWorkspaces } from "../templates/Templates.js"
import { span } from "../Tracing.js"
import {
  portShareLevelAllowed,
  type PortShareRecord,
  PortShareRepo,
  toPortShare,
  WorkspaceAgentPortShares
} from "./PortShare.js"
import type { DeleteWorkspaceAgentPortShareRequest, UpsertWorkspaceAgentPortShareRequest } from "./Requests.js"
import { WorkspaceSharing } from "./Sharing.js"
import { type WorkspaceRecord, WorkspaceRepo } from "./Workspace.js"

/** How audit entries name the workspace whose ports changed. */
const workspaceResource = (w: WorkspaceRecord) => ({
  type: "workspace",
  id: w.id,
  target: w.name,
  organizationId: w.organization_id
})

/** The audited state: the one share the request touched (`null` when there is none). */
const audited = (share: PortShareRecord | undefined) => ({
  port_share: share === undefined
    ? null
    : { agent_name: share.agent_name, port: share.port, share_level: share.share_level, protocol: share.protocol }
})

export class PortShares extends Effect.Service<PortShares>()("@workbay/core/PortShares", {
  effect: Effect.gen(function*() {
    const sharing = yield* WorkspaceSharing
    const workspaces = yield* WorkspaceRepo
    const templates = yield* TemplateRepo
    const shares = yield* PortShareRepo

    /**
     * Resolves `{workspace}` (an id). One the caller may not read answers 404. For reads a
     * token that does not cover reading it answers 403; for changes the token is asked about
     * the change itself, next.
     */
    const resolve = (ref: string, mode: "read" | "act") =>
      Effect.gen(function*() {
        const found = isUuid(ref) ? yield* workspaces.findById(ref.toLowerCase()) : Option.none()
        if (Option.isNone(found)) return yield* NotFound.resource("Workspace")
        const w = found.value
        yield* mode === "read"
          ? authorizeRead("Workspace", sharing.object(w))
          : authorizeVisible("Workspace", sharing.object(w))
        return w
      })

    /** GET /workspaces/{workspace}/port-share: every share, by port. */
    const list = (ref: string) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref, "read")
        const rows = yield* shares.list(w.id)
        return new WorkspaceAgentPortShares({ shares: rows.map(toPortShare) }, true)
      }).pipe(span("PortShares.list"))

    /** POST /workspaces/{workspace}/port-share: creates the share or changes its level and protocol. */
    const upsert = (ref: string, input: typeof UpsertWorkspaceAgentPortShareRequest.Type) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref, "act")
        yield* authorize("update", sharing.object(w))
        const template = yield* templates.findById(w.template_id)
        const max = Option.match(template, { onNone: () => "owner", onSome: (t) => t.max_port_share_level })
        if (!portShareLevelAllowed(input.share_level, max)) {
          return yield* new BadRequest({
            message: "Port sharing level not allowed.",
            validations: [
              new Validation({
                field: "share_level",
                detail: `"${input.share_level}" sharing level is not allowed under the template's max level "${max}".`
              })
            ]
          })
        }
        if (!(yield* shares.latestBuildHasAgent(w.id, input.agent_name))) {
          return yield* BadRequest.field(
            "agent_name",
            `The workspace's latest build has no agent named "${input.agent_name}".`,
            "Agent not found."
          )
        }
        const before = yield* shares.find(w.id, input.agent_name, input.port)
        const stored = yield* shares.upsert({
          workspace_id: w.id,
          agent_name: input.agent_name,
          port: input.port,
          share_level: input.share_level,
          protocol: input.protocol
        })
        yield* auditResource(workspaceResource(w), audited(Option.getOrUndefined(before)), audited(stored))
        return toPortShare(stored)
      }).pipe(span("PortShares.upsert"))

    /** DELETE /workspaces/{workspace}/port-share: 404 when the port is not shared. */
    const remove = (ref: string, input: typeof DeleteWorkspaceAgentPortShareRequest.Type) =>
      Effect.gen(function*() {
        const w = yield* resolve(ref, "act")
        yield* authorize("update", sharing.object(w))
        const before = yield* shares.find(w.id, input.agent_name, input.port)
        // A concurrent delete may win between the two: gone either way, and only one is recorded as done.
        if (Option.isNone(before) || !(yield* shares.delete(w.id, input.agent_name, input.port))) {
          return yield* NotFound.resource("Port share")
        }
        yield* auditResource(workspaceResource(w), audited(before.value), audited(undefined))
      }).pipe(span("PortShares.delete"))

    return { list, upsert, delete: remove } as const
  })
}) {}

/** What a template change does to its workspaces (templates' `TemplateWorkspaces`). */
export const templateWorkspacesLayer: Layer.Layer<TemplateWorkspaces, never, PortShareRepo | WorkspaceRepo> = Layer
  .effect(
    TemplateWorkspaces,
    Effect.gen(function*() {
      const portShares = yield* PortShareRepo
      const workspaces = yield* WorkspaceRepo
      return TemplateWorkspaces.of({
        lowerPortShares: portShares.lowerToTemplateMax,
        touch: workspaces.touchByTemplate,
        redateDormant: workspaces.redateDormantByTemplate
      })
    })
  )
