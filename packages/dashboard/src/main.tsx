import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { lazy, StrictMode, Suspense } from "react"
import { createRoot } from "react-dom/client"
import { createBrowserRouter, Navigate, RouterProvider } from "react-router"
import { Layout } from "./Layout.tsx"
import { SetupPage } from "./pages/Setup.tsx"
import { SignInPage } from "./pages/SignIn.tsx"
import { WorkspacePage } from "./pages/Workspace.tsx"
import { WorkspacesPage } from "./pages/Workspaces.tsx"
import "./styles.css"

// The terminal (xterm, about 330 KB) is its own chunk, loaded when a terminal is opened.
const TerminalPage = lazy(() => import("./pages/Terminal.tsx").then((m) => ({ default: m.TerminalPage })))

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } }
})

const router = createBrowserRouter([
  { path: "/setup", element: <SetupPage /> },
  { path: "/login", element: <SignInPage /> },
  {
    path: "/",
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/workspaces" replace /> },
      { path: "workspaces", element: <WorkspacesPage /> },
      // The described system's addresses: /@owner/workspace and /@owner/workspace.agent/terminal
      // (a route segment is all dynamic or all static: the pages check the "@").
      { path: ":owner/:workspace", element: <WorkspacePage /> },
      {
        path: ":owner/:target/terminal",
        element: (
          <Suspense fallback={<p role="status">Loading the terminal…</p>}>
            <TerminalPage />
          </Suspense>
        )
      },
      { path: "*", element: <Navigate to="/workspaces" replace /> }
    ]
  }
])

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>
)
