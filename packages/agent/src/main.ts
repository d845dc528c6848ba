/** The `workbay-agent` command: starts the agent and stops it cleanly on SIGINT or SIGTERM. */
import { AGENT_VERSION, startAgent } from "./Agent.js"
import { buildInfo } from "./BuildInfo.js"
import { parseOptions, USAGE } from "./Options.js"

export const main = async (argv: ReadonlyArray<string>): Promise<void> => {
  // What the init script checks a downloaded executable with (docs/agents.md, "The agent executable").
  if (argv.includes("--version")) {
    process.stdout.write(`workbay-agent ${AGENT_VERSION}\n`)
    return
  }
  if (argv.includes("--build-info")) {
    process.stdout.write(`${JSON.stringify(await buildInfo())}\n`)
    return
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const options = parseOptions(argv)
  const agent = await startAgent(options)
  const stop = () => {
    void agent.stop().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  const state = await agent.started
  process.stderr.write(`workbay-agent: ${agent.manifest()?.agent_name ?? "agent"} is ${state}\n`)
}
