import { useQuery } from "@tanstack/react-query"
import { firstUserQuery, meQuery } from "./queries.ts"

/** The signed-in user (null when signed out); shared by every page through the query cache. */
export const useMe = () => useQuery(meQuery)

/** Whether the first user exists (false: the setup page is shown). */
export const useFirstUserExists = () => useQuery(firstUserQuery)
