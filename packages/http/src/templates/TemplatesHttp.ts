/** Handlers of the templates group. */
import { getPrebuildsSettings, PrebuildsReconciler, Templates, updatePrebuildsSettings } from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { orNotModified } from "../RequestContext.js"

export const TemplatesHttp = implement(WorkbayApi, "templates", {
  listByOrganization: ({ path, urlParams }) =>
    Effect.flatMap(Templates, (t) => t.listByOrganization(path.organization, urlParams.q)),
  create: ({ path, payload }) => Effect.flatMap(Templates, (t) => t.create(path.organization, payload)),
  examplesByOrganization: ({ path }) => Effect.flatMap(Templates, (t) => t.examples(path.organization)),
  examples: () => Effect.flatMap(Templates, (t) => t.examples()),
  getByName: ({ path }) => Effect.flatMap(Templates, (t) => t.getByName(path.organization, path.templatename)),
  list: ({ urlParams }) => Effect.flatMap(Templates, (t) => t.list(urlParams.q)),
  get: ({ path }) => Effect.flatMap(Templates, (t) => t.get(path.template)),
  update: ({ path, payload }) => orNotModified(Effect.flatMap(Templates, (t) => t.update(path.template, payload))),
  delete: ({ path }) => Effect.flatMap(Templates, (t) => t.delete(path.template)),
  getAcl: ({ path }) => Effect.flatMap(Templates, (t) => t.getAcl(path.template)),
  updateAcl: ({ path, payload }) => Effect.flatMap(Templates, (t) => t.updateAcl(path.template, payload)),
  aclAvailable: ({ path, urlParams }) => Effect.flatMap(Templates, (t) => t.aclAvailable(path.template, urlParams)),
  invalidatePresets: ({ path }) => Effect.flatMap(PrebuildsReconciler, (p) => p.invalidate(path.template)),
  getPrebuildsSettings: () => getPrebuildsSettings,
  updatePrebuildsSettings: ({ payload }) => orNotModified(updatePrebuildsSettings(payload))
})
