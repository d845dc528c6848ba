/**
 * POST /authcheck beside the evaluator it asks (Rbac.ts): each check answered as the matching
 * route would answer it, with the caller's roles and the token's scopes and allow-list.
 *
 * A check that names one stored object (a template, a workspace) is answered with that object's
 * organization, owner and access list. This module knows no area: the assembly (Services.ts)
 * gives `AuthCheck.layer` the areas' completions (`templateAcl`, `workspaceAcl`). The route's
 * request and answer schemas are here too; the route (`http/src/users/AuthApi.ts`) declares them.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { allowed, CurrentActor } from "./Actor.js"
import { isUuid } from "./Ids.js"
import { actions, type AuthzObject, resourceKinds } from "./Rbac.js"
import { optional, wireName } from "./Requests.js"
import { span } from "./Tracing.js"

/** The resource kind and the action of an authorization check, as the evaluator knows them. */
const ResourceType = Schema.Literal(...resourceKinds).annotations({
  message: () => ({
    message: "Resource type must be a resource kind (such as user or organization) or \"*\".",
    override: true
  })
})
const Action = Schema.Literal(...actions).annotations({
  message: () => ({ message: `Action must be one of ${actions.join(", ")}.`, override: true })
})

/** The object a check names; `owner_id` is a user id, or `me` for the caller. */
export class AuthorizationObject extends Schema.Class<AuthorizationObject>("AuthorizationObject")({
  resource_type: ResourceType,
  resource_id: optional(Schema.String),
  organization_id: optional(Schema.String),
  owner_id: optional(Schema.String),
  any_org: optional(Schema.Boolean)
}, wireName("AuthorizationObject")) {}

/** One check of POST /authcheck: may the caller perform `action` on `object`? */
export class AuthorizationCheck extends Schema.Class<AuthorizationCheck>("AuthorizationCheck")({
  action: Action,
  object: AuthorizationObject
}) {}

/** POST /authcheck: the checks, by the keys the answer names them with. */
export class AuthorizationRequest extends Schema.Class<AuthorizationRequest>("AuthorizationRequest")({
  checks: Schema.Record({ key: Schema.String, value: AuthorizationCheck })
}) {}

/** The answer of POST /authcheck: each check's key and whether it is allowed. */
export const AuthorizationResponse = Schema.Record({ key: Schema.String, value: Schema.Boolean })

const nonEmpty = (s: string | undefined) => (s === undefined || s === "" ? undefined : isUuid(s) ? s.toLowerCase() : s)

/**
 * The object a check names, as the routes name it: a user owns itself (`owner_id` defaults to
 * a user's `resource_id`) and an organization belongs to itself (`organization_id` defaults to
 * its `resource_id`), so a check answers what the matching route would do.
 */
export const checkObject = (check: AuthorizationCheck["object"], callerId: string): AuthzObject => {
  const id = nonEmpty(check.resource_id)
  const owner = check.owner_id === "me" ? callerId : nonEmpty(check.owner_id)
  const org = nonEmpty(check.organization_id)
  return {
    type: check.resource_type,
    id,
    ownerId: owner ?? (check.resource_type === "user" ? id : undefined),
    orgId: org ?? (check.resource_type === "organization" ? id : undefined),
    anyOrg: check.any_org
  }
}

/**
 * An area's completion of the objects of its kind: the object named by id, with what the area
 * stores of it (organization, owner, access list); the object as named when it is not found.
 */
export type StoredAcl<R> = (object: AuthzObject) => Effect.Effect<AuthzObject, never, R>

export class AuthCheck extends Context.Tag("@workbay/core/AuthCheck")<AuthCheck, {
  /** POST /authcheck: the answer to each check, by its key. */
  readonly check: (
    checks: typeof AuthorizationRequest.Type["checks"]
  ) => Effect.Effect<typeof AuthorizationResponse.Type, never, CurrentActor>
}>() {
  /** The service, completing objects with `stored` (one completion per area, applied in turn). */
  static readonly layer = <R>(stored: ReadonlyArray<StoredAcl<R>>): Layer.Layer<AuthCheck, never, R> =>
    Layer.effect(
      AuthCheck,
      Effect.map(Effect.context<R>(), (context) => {
        const complete = (object: AuthzObject): Effect.Effect<AuthzObject> =>
          Effect.provide(
            Effect.reduce(stored, object, (o, acl) => acl(o)),
            context
          )
        return AuthCheck.of({
          check: (checks) =>
            Effect.gen(function*() {
              const actor = yield* CurrentActor
              const answers: Array<readonly [string, boolean]> = []
              for (const [key, c] of Object.entries(checks)) {
                answers.push([key, yield* allowed(c.action, yield* complete(checkObject(c.object, actor.user.id)))])
              }
              // fromEntries defines own properties, so even a key named "__proto__" is answered.
              return Object.fromEntries(answers) as Record<string, boolean>
            }).pipe(span("Auth.check"))
        })
      })
    )
}
