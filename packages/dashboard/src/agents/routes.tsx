import type { RouteObject } from "react-router"
import { lazyPage } from "../ui/LazyPage.tsx"

export const agentsRoutes: Array<RouteObject> = [
  // The described system's address, /@owner/workspace.agent/terminal. The terminal (xterm, about
  // 330 KB) is a chunk of its own, loaded when a terminal is opened.
  {
    path: ":owner/:target/terminal",
    element: lazyPage(() => import("./Terminal.tsx"), (m) => m.TerminalPage, "Loading the terminal…")
  }
]
