import { afterAll } from "vitest"
import { describeResponseSchemas } from "../responseSchemas.js"
import { closeExternalAuthWorld } from "./fixtures.js"
import { responseRows } from "./responseRows.js"

afterAll(closeExternalAuthWorld)

describeResponseSchemas(responseRows)
