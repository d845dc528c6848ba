/**
 * The one reader of the service's Response object (`message`, `detail`, `validations`): every
 * refusal a consumer of the API sees, whether from a request or a WebSocket upgrade, is an
 * {@link ApiError} made here.
 */

/** One entry of a Response's `validations`: the field and what is wrong with it. */
export interface Validation {
  readonly field: string
  readonly detail: string
}

/** A refusal of the service: its status and the Response body (`message`, `detail`, `validations`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string | undefined = undefined,
    readonly validations: ReadonlyArray<Validation> = []
  ) {
    super(message)
    this.name = "ApiError"
  }
}

/**
 * The ApiError of a refused request: from its Response body when it is one (`body` parsed or as
 * text), else the status line with the start of the body as the detail (a proxy's error page).
 */
export const apiErrorOf = (status: number, statusText: string, body: unknown): ApiError => {
  let parsed = body
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body)
    } catch {
      // not JSON: the status line and the text below
    }
  }
  if (typeof parsed === "object" && parsed !== null && typeof (parsed as { message?: unknown }).message === "string") {
    const { detail, message, validations } = parsed as { message: string; detail?: unknown; validations?: unknown }
    return new ApiError(
      status,
      message,
      typeof detail === "string" ? detail : undefined,
      Array.isArray(validations)
        ? validations.filter((v): v is Validation =>
          typeof v === "object" && v !== null && typeof v.field === "string" && typeof v.detail === "string"
        )
        : []
    )
  }
  const text = (typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body)).trim().slice(0, 500)
  return new ApiError(
    status,
    `The service answered ${status} ${statusText}`.trimEnd() + ".",
    text === "" ? undefined : text
  )
}

/** Whether a failure is the service answering `status` (404 for "no such thing", 401 for "signed out"). */
export const isStatus = (error: unknown, status: number): error is ApiError =>
  error instanceof ApiError && error.status === status
