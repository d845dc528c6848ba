/** Handlers of the groups group. */
import { WorkbayApi } from "../Api.js"
import { implement } from "../Handlers.js"

export const GroupsHttp = implement(WorkbayApi, "groups", {})
