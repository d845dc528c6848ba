/**
 * Test support (a vitest globalSetup): the dashboard built into packages/dashboard/dist once for
 * the run, unless it holds a build of the same inputs (build.mjs hashes them), as `npm start` does.
 */
import { buildDashboard } from "../build.mjs"

export default async function setup() {
  await buildDashboard({ log: (line) => console.log(`${line} (for the tests)`) })
}
