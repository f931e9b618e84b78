/** Token statuses (spec section 4); anything else is unknown. Expired and exhausted are set by the server. */
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const

/** Redemption code statuses (spec section 4). */
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const

/** Channel statuses (spec section 4): automatic disabling is the server's. */
export const CHANNEL_STATUS = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const

/** Log types (spec section 4); 0 is the "all types" filter, anything else unknown. */
export const LOG_TYPE = { all: 0, topup: 1, consume: 2, manage: 3, system: 4 } as const

/** Billing types of a model (spec section 4, the pricing entry's quota_type). */
export const BILLING_TYPE = { perUsage: 0, perCall: 1 } as const
