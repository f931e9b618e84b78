/**
 * A failed call. `status` is the HTTP status (0: the server could not be reached; 200: the server
 * answered `success: false`, a business refusal whose `message` is the server's own words).
 */
export class ApiError extends Error {
  status: number
  data: unknown
  constructor(status: number, message: string, data: unknown = null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.data = data
  }
  /** the server refused the action (HTTP 200, success false) */
  get refused(): boolean {
    return this.status === 200
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError
}
