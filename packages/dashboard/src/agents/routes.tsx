import { lazy, Suspense } from "react"
import type { RouteObject } from "react-router"

// The terminal (xterm, about 330 KB) is its own chunk, loaded when a terminal is opened.
const TerminalPage = lazy(() => import("./Terminal.tsx").then((m) => ({ default: m.TerminalPage })))

export const agentsRoutes: Array<RouteObject> = [
  // The described system's address, /@owner/workspace.agent/terminal.
  {
    path: ":owner/:target/terminal",
    element: (
      <Suspense fallback={<p role="status">Loading the terminal…</p>}>
        <TerminalPage />
      </Suspense>
    )
  }
]
