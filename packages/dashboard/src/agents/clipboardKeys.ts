import type { Terminal } from "@xterm/xterm"

/** Ctrl+Shift+C, and nothing else held. */
const isCopy = (event: KeyboardEvent) =>
  event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey && event.key.toLowerCase() === "c"

/** Ctrl+V or Ctrl+Shift+V, and nothing else held. */
const isPaste = (event: KeyboardEvent) =>
  event.ctrlKey && !event.altKey && !event.metaKey && event.key.toLowerCase() === "v"

/**
 * xterm's key handler for copy and paste by keyboard: Ctrl+Shift+C copies the selection (through
 * the asynchronous clipboard where the page may use it, a secure context, else through the `copy`
 * event xterm answers with the selection); Ctrl+V and Ctrl+Shift+V are left to the browser, whose
 * `paste` event xterm takes (bracketed when the program asked for it), instead of xterm sending ^V.
 * On macOS, Cmd+C and Cmd+V are the browser's and work without it.
 */
export const clipboardKeys = (terminal: Terminal) => (event: KeyboardEvent): boolean => {
  if (isPaste(event)) return false
  if (!isCopy(event)) return true
  // Without this Chromium opens its inspector on Ctrl+Shift+C.
  event.preventDefault()
  if (event.type !== "keydown" || !terminal.hasSelection()) return false
  const selection = terminal.getSelection()
  if (window.isSecureContext && navigator.clipboard !== undefined) {
    navigator.clipboard.writeText(selection).catch(() => document.execCommand("copy"))
  } else {
    document.execCommand("copy")
  }
  return false
}
