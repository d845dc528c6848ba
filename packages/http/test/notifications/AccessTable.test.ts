import { describeAccessTable } from "../accessTable.js"
import { accessRows } from "./accessRows.js"

describeAccessTable(accessRows)
