/**
 * Close codes and reasons of WebSockets (RFC 6455), with nothing else in the module: the socket
 * relay's own process (SocketRelayMain.ts) loads it without the service.
 */

/** Close codes (RFC 6455). */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  unsupportedData: 1003,
  tooBig: 1009,
  internalError: 1011
} as const

/** A close reason is at most 123 bytes (a control frame's 125, less the code). */
export const clipReason = (reason: string): string => {
  const bytes = Buffer.from(reason, "utf8")
  if (bytes.length <= 123) return reason
  return bytes.subarray(0, 120).toString("utf8").replace(/\uFFFD+$/, "") + "..."
}
