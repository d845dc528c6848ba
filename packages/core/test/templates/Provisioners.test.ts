/** The provisioner registry: the built-in one beside an embedder's own, by type name. */
import { describe, expect, it } from "@effect/vitest"
import { type Provisioner, ProvisionerFailure, Provisioners, workbayProvisioner } from "@workbay/core"
import { Context, Effect, Layer, Option } from "effect"

/** "The embedder's" provisioner: a driver configured by a service of its own layer. */
class DockerHost extends Context.Tag("test/DockerHost")<DockerHost, { readonly url: string }>() {}

const dockerProvisioner = (host: string): Provisioner => ({
  type: "docker",
  import: () =>
    Effect.succeed({
      parameters: [],
      variables: [],
      resources: [],
      external_auth_providers: [],
      presets: [],
      has_ai_task: false,
      ai_task_app_slug: undefined,
      has_external_agent: false,
      logs: []
    }),
  build: (input) =>
    input.transition === "delete"
      ? Effect.fail(new ProvisionerFailure({ message: `${host} refused.`, logs: [] }))
      : Effect.succeed({
        resources: [],
        state: new Uint8Array(),
        daily_cost: 0,
        has_ai_task: false,
        has_external_agent: false,
        logs: []
      })
})

describe("Provisioners", () => {
  it.effect("finds registered provisioners by type, and none for an unknown type", () =>
    Effect.gen(function*() {
      const registry = yield* Provisioners
      expect(registry.types).toEqual(["workbay", "docker"])
      expect(Option.map(registry.get("workbay"), (p) => p.type)).toEqual(Option.some("workbay"))
      const docker = Option.getOrThrow(registry.get("docker"))
      const error = yield* Effect.flip(docker.build({
        archive: new Uint8Array(),
        content_type: "application/x-tar",
        transition: "delete",
        variable_values: [],
        parameter_values: [],
        previous_state: new Uint8Array(),
        workspace: { id: "w", name: "w", owner: "o" },
        agentToken: () => Effect.succeed("token")
      }))
      expect(error.message).toBe("tcp://docker:2375 refused.")
      expect(registry.get("terraform")).toEqual(Option.none())
    }).pipe(Effect.provide(
      Provisioners.layerEffect(Effect.map(DockerHost, (h) => [workbayProvisioner, dockerProvisioner(h.url)])).pipe(
        Layer.provide(Layer.succeed(DockerHost, { url: "tcp://docker:2375" }))
      )
    )))

  it.effect("lets a later provisioner of the same type replace an earlier one", () =>
    Effect.gen(function*() {
      const registry = yield* Provisioners
      expect(registry.types).toEqual(["workbay"])
      expect(Option.getOrThrow(registry.get("workbay"))).not.toBe(workbayProvisioner)
    }).pipe(Effect.provide(Provisioners.layer([workbayProvisioner, { ...dockerProvisioner("x"), type: "workbay" }]))))
})
