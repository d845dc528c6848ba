/** The command from source (`node --import tsx packages/agent/src/bin.ts ...`): what the bundle's bin does. */
import { main } from "./main.js"

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
