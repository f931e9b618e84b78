import type { User } from '../../api/types.ts'
import type { NewUser, UserChanges } from '../../api/users.ts'
import { credentialsProblem, passwordProblem } from '../../../domain/account-rules.ts'
import { firstProblem, type Problem } from '../../../domain/problem.ts'
import { DEFAULT_GROUP } from '../../../domain/roles.ts'
import { parseInteger } from '../../../domain/text.ts'

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
    group: u.group || DEFAULT_GROUP,
    quota: String(u.quota ?? 0),
  }
}

/** The body of POST /api/user/, or the problem that stops the save. */
export function newUserBody(form: Pick<UserForm, 'username' | 'display_name' | 'password'>): { body: NewUser } | { problem: Problem } {
  const problem = firstProblem(credentialsProblem(form.username, form.password), passwordProblem(form.password))
  if (problem) return { problem }
  return { body: { username: form.username.trim(), display_name: form.display_name.trim(), password: form.password } }
}

/**
 * The body of PUT /api/user/: the quota parsed as an integer (spec section 5), the password sent
 * only when one was typed.
 */
export function userChanges(id: number, form: UserForm): { body: UserChanges } | { problem: Problem } {
  const problem = form.password ? passwordProblem(form.password) : null
  if (problem) return { problem }
  const quota = parseInteger(form.quota)
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
  const base = parseInteger(quota)
  const add = parseInteger(amount)
  return String((Number.isNaN(base) ? 0 : base) + (Number.isNaN(add) ? 0 : add))
}
