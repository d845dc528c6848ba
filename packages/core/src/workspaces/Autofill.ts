/**
 * The values a user last built a template's workspaces with, to fill in the next build's form
 * (GET /users/{user}/autofill-parameters; the route stays with the users' routes).
 */
import { Effect, Option, Schema } from "effect"
import { isUuid } from "../Ids.js"
import { TemplateVersionRepo } from "../templates/TemplateVersion.js"
import { span } from "../Tracing.js"
import { Users } from "../users/Users.js"
import { WorkspaceBuildRepo } from "./WorkspaceBuild.js"

/** A parameter's last value (the described system's `UserParameter`). */
export const UserParameter = Schema.Struct({ name: Schema.String, value: Schema.String })

/** The answer of GET /users/{user}/autofill-parameters. */
export const AutofillParametersResponse = Schema.Array(UserParameter)

export class AutofillParameters extends Effect.Service<AutofillParameters>()("@workbay/core/AutofillParameters", {
  effect: Effect.gen(function*() {
    const users = yield* Users
    const buildRepo = yield* WorkspaceBuildRepo
    const versionRepo = yield* TemplateVersionRepo

    /**
     * GET /users/{user}/autofill-parameters?template_id=: the values the user last built the
     * template's workspaces with (start builds), one per parameter name, newest first, at most
     * 100, leaving out parameters that were ephemeral in the version built, as the described
     * system does. Reads at most 1,000 stored values, whatever the user's history.
     */
    const autofillParameters = (ref: string, templateId: string) =>
      Effect.gen(function*() {
        const user = yield* users.resolvePersonal(ref)
        const rows = isUuid(templateId)
          ? yield* buildRepo.recentParameters(user.id, templateId.toLowerCase(), 1000)
          : []
        const ephemeralOf = new Map<string, ReadonlySet<string>>()
        const seen = new Set<string>()
        const out: Array<typeof UserParameter.Type> = []
        for (const row of rows) {
          if (seen.has(row.name)) continue
          seen.add(row.name)
          let ephemeral = ephemeralOf.get(row.template_version_id)
          if (ephemeral === undefined) {
            const version = Option.getOrUndefined(yield* versionRepo.findById(row.template_version_id))
            ephemeral = new Set(
              (version?.import_result?.parameters ?? []).filter((p) => p.ephemeral).map((p) => p.name)
            )
            ephemeralOf.set(row.template_version_id, ephemeral)
          }
          if (ephemeral.has(row.name)) continue
          out.push({ name: row.name, value: row.value })
          if (out.length === 100) break
        }
        return out
      }).pipe(span("Users.autofillParameters"))

    return { autofillParameters } as const
  })
}) {}
