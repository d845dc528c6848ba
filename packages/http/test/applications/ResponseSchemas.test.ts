import { afterAll } from "vitest"
import { closeExternalAuthWorld } from "../externalauth/fixtures.js"
import { describeResponseSchemas } from "../responseSchemas.js"
import { responseRows } from "./responseRows.js"

afterAll(closeExternalAuthWorld)

describeResponseSchemas(responseRows)
