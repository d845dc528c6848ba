/** The core services on a fresh in-memory SQLite database, as the HTTP package assembles them: for core tests. */
import {
  Auth,
  CurrentActor,
  Files,
  IdGenerator,
  MailSender,
  PasswordHasher,
  type Provisioner,
  Provisioners,
  ProvisionerWorkers,
  ServicesLive,
  Settings,
  type SettingsShape,
  Templates,
  TemplateVersions,
  ThisReplica,
  workbayProvisioner
} from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Layer } from "effect"
import * as TestClock from "effect/TestClock"
import { zipOf } from "./templates/archives.js"

export const services = (
  settings: Partial<SettingsShape> = {},
  provisioners: ReadonlyArray<Provisioner> = [workbayProvisioner],
  options: { readonly mail?: boolean; readonly hasher?: Layer.Layer<PasswordHasher> } = {}
) =>
  ProvisionerWorkers.Default.pipe(
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(
      Layer.mergeAll(
        Sqlite.layerMemory,
        Settings.layer(settings),
        options.hasher ?? PasswordHasher.scrypt(4),
        // `mail: false`: no MailSender, so one-time passcodes go through the notifier.
        options.mail === false ? Layer.empty : Layer.succeed(MailSender, { send: () => Effect.void }),
        IdGenerator.layer,
        Provisioners.layer(provisioners),
        ThisReplica.layer().pipe(Layer.provide(Sqlite.layerMemory))
      )
    )
  )

/** Runs the queued provisioner jobs to their end. */
export const drain = Effect.flatMap(ProvisionerWorkers, (w) => w.drain())

export const OWNER_PASSWORD = "Correct-Horse-Battery-9"

/**
 * The first user (an owner) made and signed in with the TestClock at `at`: the actor, their ids,
 * and `as`, which runs an effect as them.
 */
export const signedInOwner = (at: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(at)
    const auth = yield* Auth
    const first = yield* auth.createFirstUser({
      email: "admin@example.com",
      username: "admin",
      password: OWNER_PASSWORD
    })
    const { session_token } = yield* auth.login("admin@example.com", OWNER_PASSWORD)
    const actor = yield* auth.authenticate(session_token)
    const as = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, actor)
    return { auth, actor, as, organizationId: first.organization_id, userId: first.user_id }
  })

/** A template `name` of the built-in provisioner from `yaml`, its version imported (run as the caller). */
export const templateOf = (organizationId: string, yaml: string, name: string) =>
  Effect.gen(function*() {
    const file = yield* Effect.flatMap(Files, (f) => f.upload("application/zip", zipOf({ "template.yaml": yaml })))
    const version = yield* Effect.flatMap(TemplateVersions, (v) =>
      v.create(organizationId, { storage_method: "file", file_id: file.response.hash, provisioner: "workbay" }))
    yield* drain
    return yield* Effect.flatMap(Templates, (t) =>
      t.create(organizationId, { name, template_version_id: version.id }))
  })
