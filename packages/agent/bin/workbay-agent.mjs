#!/usr/bin/env node
// The reference agent's command: the bundle scripts/build.mjs writes (dist/workbay-agent.mjs).
import { main } from "../dist/workbay-agent.mjs"

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
