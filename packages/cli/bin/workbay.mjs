#!/usr/bin/env node
// The workbay command: the bundle scripts/build.mjs writes (dist/workbay.mjs).
import { main } from "../dist/workbay.mjs"

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
)
