/** Handlers of the template versions group. */
import { DynamicParametersRequest, type DynamicParametersResponse, lazily, TemplateVersions } from "@workbay/core"
import { Effect, Either, Schema } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { jobLogs } from "../provisioners/FollowLogs.js"
import { CloseCode, upgradeWebSocket, type WebSocketConnection } from "../WebSocket.js"

const decodeRequest = lazily(() => Schema.decodeUnknownEither(Schema.parseJson(DynamicParametersRequest)))

/**
 * The dynamic-parameters WebSocket: the form's first answer (id -1, no values), then one answer
 * per request, in order, each with the request's id. A message that is not a request closes the
 * socket with 1003 and says why.
 */
const dynamicParametersSession = (
  evaluate: (
    request: { readonly id: number; readonly inputs: Readonly<Record<string, string>> }
  ) => DynamicParametersResponse
) =>
(connection: WebSocketConnection) =>
  Effect.gen(function*() {
    const answer = (r: DynamicParametersResponse) => connection.send(JSON.stringify(r))
    yield* answer(evaluate({ id: -1, inputs: {} }))
    while (true) {
      const request = decodeRequest(yield* connection.receive)
      if (Either.isLeft(request)) {
        return yield* connection.close(CloseCode.unsupportedData, "The message is not a DynamicParametersRequest.")
      }
      yield* answer(evaluate(request.right))
    }
  }).pipe(Effect.catchTag("WebSocketClosed", () => Effect.void))

const withVersions = <A, E, R>(f: (tv: TemplateVersions) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(TemplateVersions, f)

export const TemplateVersionsHttp = implement(WorkbayApi, "templateVersions", {
  create: ({ path, payload }) => withVersions((tv) => tv.create(path.organization, payload)),
  get: ({ path }) => withVersions((tv) => tv.get(path.templateversion)),
  update: ({ path, payload }) => withVersions((tv) => tv.update(path.templateversion, payload)),
  cancel: ({ path }) => withVersions((tv) => tv.cancel(path.templateversion)),
  logs: ({ path, urlParams }) => withVersions((tv) => jobLogs(tv.importJob(path.templateversion), urlParams)),
  resources: ({ path }) => withVersions((tv) => tv.resources(path.templateversion)),
  richParameters: ({ path }) => withVersions((tv) => tv.richParameters(path.templateversion)),
  dynamicParameters: ({ path, urlParams }) =>
    withVersions((tv) =>
      Effect.flatMap(
        tv.dynamicParameters(path.templateversion, urlParams.user_id === "me" ? undefined : urlParams.user_id),
        (evaluate) => upgradeWebSocket(dynamicParametersSession(evaluate))
      )
    ),
  evaluateDynamicParameters: ({ path, payload }) =>
    withVersions((tv) =>
      Effect.map(tv.dynamicParameters(path.templateversion, payload.owner_id), (evaluate) => evaluate(payload))
    ),
  variables: ({ path }) => withVersions((tv) => tv.variables(path.templateversion)),
  externalAuth: ({ path }) => withVersions((tv) => tv.externalAuth(path.templateversion)),
  presets: ({ path }) => withVersions((tv) => tv.presets(path.templateversion)),
  createDryRun: ({ path, payload }) => withVersions((tv) => tv.createDryRun(path.templateversion, payload)),
  getDryRun: ({ path }) => withVersions((tv) => tv.getDryRun(path.templateversion, path.jobID)),
  dryRunLogs: ({ path, urlParams }) =>
    withVersions((tv) => jobLogs(tv.dryRunLogsJob(path.templateversion, path.jobID), urlParams)),
  dryRunResources: ({ path }) => withVersions((tv) => tv.dryRunResources(path.templateversion, path.jobID)),
  dryRunMatchedProvisioners: ({ path }) =>
    withVersions((tv) => tv.dryRunMatchedProvisioners(path.templateversion, path.jobID)),
  removedParameters: ({ path }) => withVersions((tv) => tv.removedListing(path.templateversion)),
  removedSchema: ({ path }) => withVersions((tv) => tv.removedListing(path.templateversion)),
  cancelDryRun: ({ path }) => withVersions((tv) => tv.cancelDryRun(path.templateversion, path.jobID)),
  archive: ({ path }) => withVersions((tv) => tv.setArchived(path.templateversion, true)),
  unarchive: ({ path }) => withVersions((tv) => tv.setArchived(path.templateversion, false)),
  listByTemplate: ({ path, urlParams }) => withVersions((tv) => tv.listByTemplate(path.template, urlParams)),
  promote: ({ path, payload }) => withVersions((tv) => tv.promote(path.template, payload.id)),
  archiveUnused: ({ path, payload }) => withVersions((tv) => tv.archiveUnused(path.template, payload.all === true)),
  getByTemplateAndName: ({ path }) =>
    withVersions((tv) => tv.getByTemplateAndName(path.template, path.templateversionname)),
  getByOrganizationAndName: ({ path }) =>
    withVersions((tv) => tv.getByOrganizationAndName(path.organization, path.templatename, path.templateversionname)),
  previous: ({ path }) =>
    withVersions((tv) => tv.previous(path.organization, path.templatename, path.templateversionname))
})
