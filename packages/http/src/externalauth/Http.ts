/** Handlers of the external auth groups. */
import {
  type AgentExternalAuthQuery,
  CurrentAgent,
  ExternalAuth,
  REDIRECT_COOKIE,
  STATE_COOKIE,
  VERIFIER_COOKIE
} from "@workbay/core"
import { Effect } from "effect"
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"
import { RequestContext } from "../RequestContext.js"

/** The calling agent's workspace owner's token (the agent comes from the agents area's authentication). */
const forAgent = (query: typeof AgentExternalAuthQuery.Type) =>
  Effect.flatMap(CurrentAgent, ({ owner }) => Effect.flatMap(ExternalAuth, (x) => x.forAgent(owner, query)))

export const ExternalAuthHttp = implement(WorkbayApi, "externalAuth", {
  list: () => Effect.flatMap(ExternalAuth, (x) => x.list),
  get: ({ path }) => Effect.flatMap(ExternalAuth, (x) => x.get(path.externalauth)),
  unlink: ({ path }) => Effect.flatMap(ExternalAuth, (x) => x.unlink(path.externalauth)),
  callback: ({ path, urlParams }) =>
    Effect.gen(function*() {
      const ctx = yield* RequestContext
      const cookies = {
        state: ctx.cookie(STATE_COOKIE),
        verifier: ctx.cookie(VERIFIER_COOKIE),
        redirect: ctx.cookie(REDIRECT_COOKIE)
      }
      const answer = yield* Effect.flatMap(
        ExternalAuth,
        (x) => x.callback(path.externalauth, { ...urlParams, cookies })
      )
      for (const c of answer.cookies) ctx.setCookie(c.name, c.value, { maxAgeSeconds: c.maxAgeSeconds })
      ctx.setHeader("location", answer.location)
    }),
  device: ({ path }) => Effect.flatMap(ExternalAuth, (x) => x.deviceStart(path.externalauth)),
  deviceExchange: ({ path, payload }) =>
    Effect.flatMap(ExternalAuth, (x) => x.deviceExchange(path.externalauth, payload.device_code))
})

export const AgentExternalAuthHttp = implement(WorkbayApi, "agentExternalAuth", {
  externalAuth: ({ urlParams }) => forAgent(urlParams),
  gitAuth: ({ urlParams }) => forAgent(urlParams)
})
