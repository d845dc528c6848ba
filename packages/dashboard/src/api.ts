/**
 * The dashboard's only way to the service: the public API under /api/v2, with the session cookie
 * that `POST /users/login` sets (HttpOnly, so never read here: the browser sends it).
 */

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly detail?: string) {
    super(message)
  }
}

const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`/api/v2${path}`, {
    method,
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  const json = text === "" ? undefined : JSON.parse(text)
  if (!response.ok) {
    throw new ApiError(response.status, json?.message ?? `${method} ${path}: ${response.status}`, json?.detail)
  }
  return json as T
}

export interface User {
  readonly id: string
  readonly username: string
  readonly name?: string
  readonly email: string
  readonly organization_ids: ReadonlyArray<string>
}

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly owner_name: string
  readonly template_name: string
  readonly template_display_name?: string
  readonly latest_build: {
    readonly id?: string
    readonly build_number?: number
    readonly status: string
    readonly resources?: ReadonlyArray<WorkspaceResource>
    readonly transition: string
    readonly created_at: string
    readonly updated_at: string
  }
}

export interface WorkspaceAgent {
  readonly id: string
  readonly name: string
  /** connecting, connected, disconnected, timeout */
  readonly status: string
  readonly lifecycle_state: string
  readonly version: string
}

export interface WorkspaceResource {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly agents?: ReadonlyArray<WorkspaceAgent>
}

/** The latest build's agents, in the order of its resources. */
export const agentsOf = (w: Workspace): ReadonlyArray<WorkspaceAgent> =>
  (w.latest_build.resources ?? []).flatMap((r) => r.agents ?? [])

export interface WorkspacesPage {
  readonly workspaces: ReadonlyArray<Workspace>
  readonly count: number
}

export interface AuthMethods {
  readonly password: { readonly enabled: boolean }
  readonly github: { readonly enabled: boolean }
  readonly oidc: { readonly enabled: boolean; readonly signInText: string; readonly iconUrl: string }
}

export const api = {
  authMethods: () => request<AuthMethods>("GET", "/users/authmethods"),
  /** Whether the first user exists (the endpoint answers 404 before). */
  firstUserExists: async () => {
    try {
      await request("GET", "/users/first")
      return true
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return false
      throw e
    }
  },
  createFirstUser: ({ name, ...body }: { email: string; username: string; name: string; password: string }) =>
    request<unknown>("POST", "/users/first", name.trim() === "" ? body : { ...body, name }),
  login: (email: string, password: string) => request<unknown>("POST", "/users/login", { email, password }),
  logout: () => request<unknown>("POST", "/users/logout"),
  /** The signed-in user, or null when not signed in. */
  me: async (): Promise<User | null> => {
    try {
      return await request<User>("GET", "/users/me")
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null
      throw e
    }
  },
  workspace: (owner: string, name: string) =>
    request<Workspace>("GET", `/users/${encodeURIComponent(owner)}/workspace/${encodeURIComponent(name)}`),
  build: (workspaceId: string, transition: "start" | "stop") =>
    request<unknown>("POST", `/workspaces/${encodeURIComponent(workspaceId)}/builds`, { transition }),
  workspaces: (q: string, limit: number, offset: number) =>
    request<WorkspacesPage>(
      "GET",
      `/workspaces?${new URLSearchParams({ q, limit: String(limit), offset: String(offset) })}`
    )
}

/**
 * Watches one workspace (`/workspaces/{id}/watch-ws`): `onChange` gets the workspace at once and
 * on each change. Returns the function that stops watching.
 */
export const watchWorkspace = (id: string, onChange: (workspace: Workspace) => void) => {
  const socket = new WebSocket(webSocketUrl(`/workspaces/${encodeURIComponent(id)}/watch-ws`))
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; data: unknown }
    if (message.type === "data") onChange(message.data as Workspace)
  }
  return () => socket.close()
}

/** The ws:// (or wss://) address of an API path on this origin. */
export const webSocketUrl = (path: string) =>
  `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v2${path}`
