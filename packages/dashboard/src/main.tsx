import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { createBrowserRouter, Navigate, RouterProvider } from "react-router"
import { Layout } from "./Layout.tsx"
import { SetupPage } from "./pages/Setup.tsx"
import { SignInPage } from "./pages/SignIn.tsx"
import { WorkspacesPage } from "./pages/Workspaces.tsx"
import "./styles.css"

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
