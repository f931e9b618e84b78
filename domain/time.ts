/** The last second of the year 9999: a later "timestamp" is a millisecond value sent by mistake. */
export const SECONDS_MAX = 253402300799

export const HOUR = 3600
export const DAY = 24 * HOUR
/** A month of the spec's shortcuts and ranges is 30 days (spec section 9). */
export const MONTH = 30 * DAY

/** Granularities of the data dashboard, the choices of DataExportDefaultTime; hour is the default (spec section 9). */
export const GRANULARITIES = ['hour', 'day', 'week'] as const

/** Sending a code again (registration, e-mail binding, password reset) is locked this long (spec section 4). */
export const RESEND_LOCK_SECONDS = 30
