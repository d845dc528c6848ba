// The built dashboard's folder (index.html and the hashed assets/), for the service's `dashboard`
// option: makeWorkbay(storage, { dashboard: { dir: dashboardDir } }). See docs/dashboard.md.
import { fileURLToPath } from "node:url"

export const dashboardDir = fileURLToPath(new URL("./dist/", import.meta.url))
