/** `wireMaker`: the records it makes are the ones `new C(props, true)` makes. */
import { describe, expect, it } from "@effect/vitest"
import { SlimRole, User, UserAppearance, wireMaker, Workspace, WorkspaceHealth } from "@workbay/core"
import { Equal, Schema } from "effect"

const user = {
  created_at: new Date(Date.UTC(2024, 1, 29, 1, 2, 3, 4)),
  email: "alice@example.com",
  id: "8b2e4a3c-1111-4222-8333-944445555666",
  last_seen_at: new Date(Date.UTC(2024, 1, 29, 1, 2, 3, 5)),
  login_type: "password" as const,
  status: "active" as const,
  updated_at: new Date(Date.UTC(2024, 1, 29, 1, 2, 3, 6)),
  username: "alice",
  name: "Alice",
  has_ai_seat: false,
  organization_ids: ["8b2e4a3c-1111-4222-8333-944445555667"],
  roles: [new SlimRole({ display_name: "Owner", name: "owner" })]
}

class WithDefault extends Schema.Class<WithDefault>("WithDefault")({
  name: Schema.String,
  count: Schema.optionalWith(Schema.Number, { default: () => 7 })
}) {}

class Tagged extends Schema.TaggedClass<Tagged>()("Tagged", { name: Schema.String }) {}

describe("wireMaker", () => {
  it("makes what new C(props, true) makes: same fields, same class, equal", () => {
    const made = wireMaker(User)(user)
    const constructed = new User(user, true)
    expect(made).toBeInstanceOf(User)
    expect(made).toEqual(constructed)
    // The same fields; the record's in the class's order, whatever order the props were in.
    expect(Object.keys(made).sort()).toEqual(Object.keys(constructed).sort())
    expect(Object.keys(made)).toEqual(Object.keys(User.fields).filter((k) => k in user))
    expect(Equal.equals(made, constructed)).toBe(true)
    expect(Schema.encodeSync(User)(made)).toEqual(Schema.encodeSync(User)(constructed))
  })

  it("leaves absent optional fields absent and copies the props (later changes to them do not show)", () => {
    const props: { display_name: string; name: string; organization_id?: string } = {
      display_name: "Owner",
      name: "owner"
    }
    const role = wireMaker(SlimRole)(props)
    expect("organization_id" in role).toBe(false)
    props.name = "changed"
    expect(role.name).toBe("owner")
    expect(wireMaker(UserAppearance)({ ...UserAppearance.defaults, theme_preference: "dark" })).toEqual(
      new UserAppearance({ ...UserAppearance.defaults, theme_preference: "dark" }, true)
    )
    expect(wireMaker(WorkspaceHealth)({ healthy: true, failing_agents: [] })).toBeInstanceOf(WorkspaceHealth)
    expect(Workspace.fields.id).toBeDefined()
  })

  it("copies the class's fields only, an optional one when the props hold it", () => {
    const props = { display_name: "Owner", name: "owner", organization_id: "an org", extra: "not a field" }
    const role = wireMaker(SlimRole)(props)
    expect(role).toBeInstanceOf(SlimRole)
    expect("extra" in role).toBe(false)
    expect(role.organization_id).toBe("an org")
    expect(Object.keys(role)).toEqual(["display_name", "name", "organization_id"])
  })

  it("keeps the constructor for classes whose fields have defaults (and tagged classes)", () => {
    const made = wireMaker(WithDefault)({ name: "x" })
    expect(made.count).toBe(7)
    expect(made).toEqual(new WithDefault({ name: "x" }, true))
    const tagged = wireMaker(Tagged)({ name: "y" })
    expect(tagged._tag).toBe("Tagged")
    expect(tagged).toEqual(new Tagged({ name: "y" }, true))
  })
})
