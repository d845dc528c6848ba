/**
 * The argument that makes a process a child of the scaletest's light agents (LightAgents.ts): the
 * module runs as a script with it, or, in the executable with no Node (scripts/executables.mjs,
 * where the module's file is the executable itself), the command's entry (bin.ts) loads it.
 */
export const LIGHT_AGENTS_CHILD = "--workbay-light-agents-child"

/**
 * Whether this process is such a child: forked (an IPC channel) with the mark after the script
 * (`node <module> <mark>`) or, in the executable, after the executable's path that `fork` puts
 * first (`<executable> <executable> <mark>`).
 */
export const isLightAgentsChild = (): boolean =>
  process.send !== undefined && process.argv.slice(2, 4).includes(LIGHT_AGENTS_CHILD)
