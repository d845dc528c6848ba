import { afterAll } from "vitest"
import { describeResponseSchemas } from "../responseSchemas.js"
import { closeLicensedWorld } from "./fixtures.js"
import { responseRows } from "./responseRows.js"

afterAll(closeLicensedWorld)

describeResponseSchemas(responseRows)
