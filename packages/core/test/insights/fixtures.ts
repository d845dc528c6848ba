/** Test support: an agent's stats report with every figure zero but those given. */
import type { AgentStats } from "@workbay/core"

export const agentStats = (s: Partial<AgentStats>): AgentStats => ({
  connections_by_proto: {},
  connection_count: 0,
  connection_median_latency_ms: 0,
  rx_packets: 0,
  rx_bytes: 0,
  tx_packets: 0,
  tx_bytes: 0,
  session_count_vscode: 0,
  session_count_jetbrains: 0,
  session_count_reconnecting_pty: 0,
  session_count_ssh: 0,
  ...s
})
