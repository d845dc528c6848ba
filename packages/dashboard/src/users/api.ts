/** The users area's calls: first-user setup, sign in and out, the signed-in user. */
import { client, isStatus, type Schemas, unwrap } from "../api/client.ts"

export type User = Schemas["User"]

export const usersApi = {
  authMethods: () => unwrap(client.GET("/api/v2/users/authmethods")),
  /** Whether the first user exists (the endpoint answers 404 before). */
  firstUserExists: async () => {
    try {
      await unwrap(client.GET("/api/v2/users/first"))
      return true
    } catch (e) {
      if (isStatus(e, 404)) return false
      throw e
    }
  },
  createFirstUser: ({ name, ...body }: { email: string; username: string; name: string; password: string }) =>
    unwrap(client.POST("/api/v2/users/first", { body: name.trim() === "" ? body : { ...body, name } })),
  login: (email: string, password: string) => unwrap(client.POST("/api/v2/users/login", { body: { email, password } })),
  logout: () => unwrap(client.POST("/api/v2/users/logout")),
  /** A user by id or username (`me`: the caller). */
  user: (user: string) => unwrap(client.GET("/api/v2/users/{user}", { params: { path: { user } } })),
  /** The signed-in user, or null when not signed in. */
  me: async (): Promise<User | null> => {
    try {
      return await usersApi.user("me")
    } catch (e) {
      if (isStatus(e, 401)) return null
      throw e
    }
  }
}
