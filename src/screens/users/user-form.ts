import type { User } from '../../api/types.ts'
import type { NewUser, UserChanges } from '../../api/users.ts'
import type { MessageKey } from '../../i18n/t.ts'

export const PASSWORD_MIN = 8

/** The edit form as the inputs hold it. */
export interface UserForm {
  username: string
  display_name: string
  password: string
  group: string
  quota: string
}

export function formFromUser(u: User): UserForm {
  return {
    username: u.username,
    display_name: u.display_name ?? '',
    password: '',
    group: u.group || 'default',
    quota: String(u.quota ?? 0),
  }
}

/** The body of POST /api/user/, or the message that stops the save. */
export function newUserBody(form: Pick<UserForm, 'username' | 'display_name' | 'password'>): { body: NewUser } | { error: MessageKey } {
  const username = form.username.trim()
  if (!username || !form.password) return { error: 'register.missing' }
  if (form.password.length < PASSWORD_MIN) return { error: 'register.passwordTooShort' }
  return { body: { username, display_name: form.display_name.trim(), password: form.password } }
}

/**
 * The body of PUT /api/user/: the quota parsed as an integer (spec section 5), the password sent
 * only when one was typed.
 */
export function userChanges(id: number, form: UserForm): { body: UserChanges } | { error: MessageKey } {
  if (form.password && form.password.length < PASSWORD_MIN) return { error: 'register.passwordTooShort' }
  const quota = parseInt(form.quota, 10)
  const body: UserChanges = {
    id,
    username: form.username.trim(),
    display_name: form.display_name.trim(),
    group: form.group,
    quota: Number.isNaN(quota) ? 0 : quota,
  }
  if (form.password) body.password = form.password
  return { body }
}

/** 'Add quota': the amount (negative allowed) added to the quota box, both read as integers. */
export function addQuota(quota: string, amount: string): string {
  const base = parseInt(quota, 10)
  const add = parseInt(amount, 10)
  return String((Number.isNaN(base) ? 0 : base) + (Number.isNaN(add) ? 0 : add))
}

export type UserState = 'activated' | 'banned' | 'cancelled' | 'unknown'

/** Spec section 4: DeletedAt set means cancelled; otherwise status 1 activated, 2 banned. */
export function userState(u: Pick<User, 'status' | 'DeletedAt'>): UserState {
  if (u.DeletedAt) return 'cancelled'
  if (u.status === 1) return 'activated'
  if (u.status === 2) return 'banned'
  return 'unknown'
}
