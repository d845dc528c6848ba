import type { RouteObject } from "react-router"
import { SetupPage } from "./Setup.tsx"
import { SignInPage } from "./SignIn.tsx"

/** The pages shown signed out (outside the signed-in frame). */
export const usersSignedOutRoutes: Array<RouteObject> = [
  { path: "/setup", element: <SetupPage /> },
  { path: "/login", element: <SignInPage /> }
]
