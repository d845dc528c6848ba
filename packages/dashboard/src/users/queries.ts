/**
 * The users area's query keys and queries: the signed-in user (`["me"]`, which every page shares
 * and a 401 anywhere sets to null), whether the first user exists, the sign-in methods, GitHub's
 * device code and the signed-in user's permissions.
 */
import { type QueryClient, queryOptions } from "@tanstack/react-query"
import { type AuthorizationCheck, usersApi as api } from "./api.ts"

export const userKeys = {
  me: ["me"] as const,
  firstUser: ["first-user"] as const,
  authMethods: ["auth-methods"] as const,
  githubDevice: ["github-device"] as const,
  /** Cached per user: another user signing in on this page asks again. */
  permissions: (user: string | undefined) => ["permissions", user] as const
}

/** The signed-in user, or null when signed out. */
export const meQuery = queryOptions({ queryKey: userKeys.me, queryFn: api.me })

/** Whether the first user exists (false: the setup page is shown). */
export const firstUserQuery = queryOptions({ queryKey: userKeys.firstUser, queryFn: api.firstUserExists })

export const authMethodsQuery = queryOptions({ queryKey: userKeys.authMethods, queryFn: api.authMethods })

/** One device code per visit of the page: asked once, never again by itself. */
export const githubDeviceQuery = queryOptions({
  queryKey: userKeys.githubDevice,
  queryFn: api.githubDevice,
  retry: false,
  staleTime: Infinity
})

/** Each named check's answer (true or false) for `user`, the signed-in user; not asked before it is known. */
export const permissionsQuery = <K extends string>(user: string | undefined, checks: Record<K, AuthorizationCheck>) =>
  queryOptions({
    queryKey: userKeys.permissions(user),
    queryFn: async () => {
      const answer = await api.authCheck(checks)
      return Object.fromEntries(Object.keys(checks).map((k) => [k, answer[k] === true])) as Record<K, boolean>
    },
    enabled: user !== undefined,
    staleTime: 60_000
  })

/** Asks who is signed in again (after a sign-in, at a navigation): a 401 makes it null. */
export const refreshMe = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: userKeys.me })

/** Signed out (a 401 from any request): the frame then sends the person to sign in. */
export const setSignedOut = (queryClient: QueryClient) => queryClient.setQueryData(userKeys.me, null)
