/**
 * The deployment's own id: the one the embedder gives (`settings.deploymentId`), else the one
 * stored in the database (`site_configs` `deployment_id`, as in the described system), made at
 * random on the deployment's first start. Every deployment has its own, and every replica of one
 * the same (the first stored wins a race of replicas on a new database): the Docker provisioner
 * labels what it makes with it, licenses name it, `/buildinfo` answers it.
 */
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { defaultSettings, Settings, type SettingsShape } from "../Settings.js"
import { LicenseRepo } from "./License.js"

/** The `site_configs` key of the deployment's id. */
export const DEPLOYMENT_ID_KEY = "deployment_id"

/** The settings with `overrides` and the deployment's id (given, else stored). */
export const settingsWithDeploymentId = (
  overrides: Partial<SettingsShape> = {}
): Layer.Layer<Settings, never, LicenseRepo> =>
  overrides.deploymentId !== undefined
    ? Settings.layer(overrides)
    : Layer.effect(
      Settings,
      Effect.map(
        Effect.flatMap(LicenseRepo, (repo) => repo.initSiteConfig(DEPLOYMENT_ID_KEY, randomUUID())),
        (deploymentId) => ({ ...defaultSettings, ...overrides, deploymentId })
      )
    )
