/** The command run from source or from a bundle of this file: `node <bundle> <args>`, as bin/workbay.mjs runs dist. */
import { isLightAgentsChild } from "./commands/scaletest/ChildMark.js"
import { main } from "./Main.js"

if (isLightAgentsChild()) {
  // The executable with no Node forked as the scaletest's agents' process: the module serves once loaded.
  void import("./commands/scaletest/LightAgents.js")
} else {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    }
  )
}
