import { describeResponseSchemas } from "../responseSchemas.js"
import { responseRows } from "./responseRows.js"

describeResponseSchemas(responseRows)
