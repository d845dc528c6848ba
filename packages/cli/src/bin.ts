/** The command run from source or from a bundle of this file: `node <bundle> <args>`, as bin/workbay.mjs runs dist. */
import { main } from "./Main.js"

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
)
