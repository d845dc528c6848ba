import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { createBrowserRouter, RouterProvider } from "react-router"
import { isStatus } from "./api/client.ts"
import { routes } from "./routes.tsx"
import { setSignedOut } from "./users/queries.ts"
import "./styles.css"

/**
 * A 401 from any request means the session is over (signed out elsewhere, expired, or the user
 * suspended): the signed-in user becomes null, and the frame sends the person to sign in.
 */
const signedOut = (error: unknown) => {
  if (isStatus(error, 401)) setSignedOut(queryClient)
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signedOut }),
  mutationCache: new MutationCache({ onError: signedOut }),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } }
})

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </QueryClientProvider>
  </StrictMode>
)
