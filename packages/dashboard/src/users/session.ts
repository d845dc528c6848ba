import { useQuery } from "@tanstack/react-query"
import { usersApi as api } from "./api.ts"

/** The signed-in user (null when signed out); shared by every page through the query cache. */
export const useMe = () => useQuery({ queryKey: ["me"], queryFn: api.me })

/** Whether the first user exists (false: the setup page is shown). */
export const useFirstUserExists = () => useQuery({ queryKey: ["first-user"], queryFn: api.firstUserExists })
