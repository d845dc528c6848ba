/**
 * Typed handler registration for the groups of an HttpApi. A handler receives
 * the decoded path, query (`urlParams`), body (`payload`) and headers of its
 * endpoint and returns the endpoint's success value or one of its errors.
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { Effect } from "effect"

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.Any

/** What a handler receives: the decoded parts its endpoint declares. */
export type EndpointRequest<E extends Endpoint> = Omit<HttpApiEndpoint.HttpApiEndpoint.Request<E>, "request">

type EndpointOf<G extends HttpApiGroup.HttpApiGroup.Any, Name extends string> =
  HttpApiEndpoint.HttpApiEndpoint.WithName<
    HttpApiGroup.HttpApiGroup.Endpoints<G>,
    Name
  >

/** One handler per endpoint of group `G`, failing only with errors the API declares. */
export type GroupHandlers<G extends HttpApiGroup.HttpApiGroup.Any, ApiError, R> = {
  readonly [Name in HttpApiEndpoint.HttpApiEndpoint.Name<HttpApiGroup.HttpApiGroup.Endpoints<G>>]: (
    request: EndpointRequest<EndpointOf<G, Name>>
  ) => Effect.Effect<
    HttpApiEndpoint.HttpApiEndpoint.Success<EndpointOf<G, Name>>,
    HttpApiEndpoint.HttpApiEndpoint.Error<EndpointOf<G, Name>> | HttpApiGroup.HttpApiGroup.Error<G> | ApiError,
    R
  >
}

/** The handlers of one group, ready for the dispatcher. */
export interface GroupImplementation<R> {
  readonly group: string
  readonly handlers: Readonly<Record<string, (request: any) => Effect.Effect<unknown, unknown, R>>>
}

/** Implements every endpoint of group `name` of `api`. */
export const implement = <
  Id extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  R
>(
  _api: HttpApi.HttpApi<Id, Groups, ApiError, ApiR>,
  name: Name,
  handlers: GroupHandlers<HttpApiGroup.HttpApiGroup.WithName<Groups, Name>, ApiError, R>
): GroupImplementation<R> => ({ group: name, handlers: handlers as GroupImplementation<R>["handlers"] })
