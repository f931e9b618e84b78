/** Roles (spec section 4 and 6): a stored role of at least 10 is an administrator, of at least 100 the super administrator. */
export const ROLE = { guest: 0, user: 1, admin: 10, root: 100 } as const

export const isAdmin = (role: number): boolean => role >= ROLE.admin
export const isRoot = (role: number): boolean => role >= ROLE.root

/**
 * An administrator may read and act on users of a lower role only; the super administrator on
 * anyone (the family's rule behind GET /api/user/{id} and every admin user action).
 */
export const outranks = (actorRole: number, targetRole: number): boolean => isRoot(actorRole) || targetRole < actorRole

/** The tier a role number belongs to, for its name and badge. */
export type RoleTier = 'root' | 'admin' | 'user'
export const roleTier = (role: number): RoleTier => (isRoot(role) ? 'root' : isAdmin(role) ? 'admin' : 'user')

/** User statuses (spec section 4): 1 activated, 2 banned. */
export const USER_STATUS = { enabled: 1, disabled: 2 } as const

export type UserState = 'activated' | 'banned' | 'cancelled' | 'unknown'

/** Spec section 4: a deleted account (DeletedAt set) is cancelled; otherwise status 1 activated, 2 banned. */
export function userState(status: number, deleted: boolean): UserState {
  if (deleted) return 'cancelled'
  if (status === USER_STATUS.enabled) return 'activated'
  if (status === USER_STATUS.disabled) return 'banned'
  return 'unknown'
}

/** The group of a new user, and the group pricing uses for a signed-out visitor (spec section 9). */
export const DEFAULT_GROUP = 'default'
