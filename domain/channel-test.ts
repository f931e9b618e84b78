/**
 * The outcome of a channel's last test, kept in its other_info JSON (beside the family's
 * status_reason and status_time) as `test_error`: present while the last test failed, removed when
 * a later test passes (the server answers it in the reader's language). The list shows such a
 * channel as failed whatever its response time.
 * And why the server disabled the channel automatically (status_reason, which the server answers in
 * the reader's language, and status_time), which the list shows on the status.
 */

function infoOf(otherInfo: string | null | undefined): Record<string, unknown> {
  if (!otherInfo) return {}
  try {
    const v: unknown = JSON.parse(otherInfo)
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * other_info with the last test's error set (a failed test) or removed (null: a passed one). The
 * server adds the error as data (`test_error_key`, `test_error_params`) to word it for each reader;
 * a new error replaces them.
 */
export function withTestError(otherInfo: string | null | undefined, error: string | null, data?: Record<string, unknown>): string {
  const { test_error: _old, test_error_key: _key, test_error_params: _params, ...rest } = infoOf(otherInfo)
  const next = error === null ? rest : { ...rest, test_error: error, ...data }
  return Object.keys(next).length ? JSON.stringify(next) : ''
}

/** Why the channel's last test failed, or null when it passed or was never run. */
export function testErrorOf(otherInfo: string | null | undefined): string | null {
  const e = infoOf(otherInfo).test_error
  return typeof e === 'string' ? e : null
}

/** Why and when the server disabled the channel automatically, or null when other_info does not say. */
export function statusReasonOf(otherInfo: string | null | undefined): { reason: string; time: number | null } | null {
  const info = infoOf(otherInfo)
  if (typeof info.status_reason !== 'string' || !info.status_reason) return null
  return { reason: info.status_reason, time: typeof info.status_time === 'number' && info.status_time > 0 ? info.status_time : null }
}
