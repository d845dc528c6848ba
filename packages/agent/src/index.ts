/** @workbay/agent: the reference workspace agent, as a library (`startAgent`) and a command (`main`). */
export {
  AGENT_API_VERSION,
  AGENT_VERSION,
  type LifecycleState,
  type Manifest,
  type RunningAgent,
  startAgent
} from "./Agent.js"
export { main } from "./main.js"
export { type AgentOptions, type AuthKind, parseOptions, USAGE } from "./Options.js"
export { handlePortsMessage, type ListeningPort, listeningPorts, parseProcNetTcp } from "./Ports.js"
export { splitOutput, type TaskInput } from "./Tasks.js"
