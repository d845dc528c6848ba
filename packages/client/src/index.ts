/**
 * @workbay/client: the types of every route, request and answer of Workbay's HTTP JSON API
 * (/api/v2), generated from the service's HttpApi definition, and a typed fetch client with one
 * reader of the service's Response body (docs/client.md).
 */
export type { components, operations, paths } from "./ApiTypes.js"
export {
  type Answer,
  type ClientOptions,
  makeClient,
  type Paths,
  type Schemas,
  settle,
  unwrap,
  type WorkbayClient
} from "./Client.js"
export { ApiError, apiErrorOf, isStatus, type Validation } from "./Errors.js"
