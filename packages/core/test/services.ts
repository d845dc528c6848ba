/** The core services on a fresh in-memory SQLite database, as the HTTP package assembles them: for core tests. */
import {
  IdGenerator, MailSender, PasswordHasher, type Provisioner, Provisioners, ProvisionerWorkers, ServicesLive, Settings, type SettingsShape, workbayProvisioner
} from "@workbay/core"
import * as Sqlite from "@workbay/storage-sqlite"
import { Effect, Layer } from "effect"

export const services = (settings: Partial<SettingsShape> = {}, provisioners: ReadonlyArray<Provisioner> = [workbayProvisioner]) =>
  ProvisionerWorkers.Default.pipe(
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(
      Layer.mergeAll(
        Sqlite.layerMemory,
        Settings.layer(settings),
        PasswordHasher.scrypt(4),
        Layer.succeed(MailSender, { send: () => Effect.void }),
        IdGenerator.layer,
        Provisioners.layer(provisioners)
      )
    )
  )
