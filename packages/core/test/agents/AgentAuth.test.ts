/**
 * An agent's token authenticates its session; an agent's connections share one session while they
 * say the same (its build, token, names and owner), so its rows are held once however many
 * connections it keeps, and a change that matters gives a new one.
 */
import { describe, expect, it } from "@effect/vitest"
import { AgentAuth, UpdateUserProfileRequest, Users } from "@workbay/core"
import { Effect } from "effect"
import { services } from "../services.js"
import { recording, setupAgent, tokenOf } from "./connection.js"

const T0 = Date.parse("2024-01-01T08:30:00Z")

describe("agent sessions", () => {
  it.scoped("connections of one agent share its session; a renamed owner makes a new one", () =>
    Effect.gen(function*() {
      const { session, workspaceId, as } = yield* setupAgent(T0)
      const auth = yield* AgentAuth
      const token = tokenOf(workspaceId)
      const again = yield* auth.authenticate(token)
      expect(again).toBe(session)
      yield* as(
        Effect.flatMap(Users, (u) => u.updateProfile("me", UpdateUserProfileRequest.make({ username: "renamed" })))
      )
      const renamed = yield* auth.authenticate(token)
      expect(renamed).not.toBe(session)
      expect(renamed.owner.username).toBe("renamed")
      expect(yield* auth.authenticate(token)).toBe(renamed)
    }).pipe(Effect.provide(services({}, [recording]))))
})
