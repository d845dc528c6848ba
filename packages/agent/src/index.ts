/** @workbay/agent: the reference workspace agent, as a library (`startAgent`) and a command (`main`). */
export {
  AGENT_API_VERSION,
  AGENT_VERSION,
  type LifecycleState,
  machineRunner,
  type Manifest,
  type RunningAgent,
  startAgent
} from "./Agent.js"
export {
  type Containers,
  type ContainersList,
  type ContainersOptions,
  DEVCONTAINER_CONFIG_FILE_LABEL,
  DEVCONTAINER_LOCAL_FOLDER_LABEL,
  devcontainerId,
  dockerEndpoint,
  handleContainersMessage,
  makeContainers
} from "./Containers.js"
export { ed25519FromSeed, hostKeyOf } from "./HostKey.js"
export { main } from "./main.js"
export {
  type AgentOptions,
  type AgentRunner,
  type AuthKind,
  type MetadataDescription,
  parseOptions,
  USAGE
} from "./Options.js"
export { handlePortsMessage, type ListeningPort, listeningPorts, parseProcNetTcp } from "./Ports.js"
export { PTY_IDLE_TIMEOUT_MS, PtySessions, REPLAY_BYTES } from "./Pty.js"
export type { Script, ScriptEnvironment, ScriptRun } from "./Scripts.js"
export { type ConnectionReport, parseStreamOpen, type SessionEnvironment, type StreamOpen } from "./Session.js"
export { SshServer } from "./Ssh.js"
export { makeStreams, type Streams, type StreamsOptions } from "./Streams.js"
export { FRAME_BYTES, HIGH_WATER_BYTES, StreamSocket } from "./StreamSocket.js"
export { splitOutput, type TaskInput } from "./Tasks.js"
