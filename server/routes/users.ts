/** User management for administrators (spec sections 4, 6 and 7, admin users) and the group list. */
import { Hono, type Context } from 'hono'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { nowSeconds, ok, readBody, readQuery, refuse, type Env } from '../http.ts'
import { optional, pagingQuery } from '../lib/wire.ts'
import type { DB } from '../db/schema.ts'
import type { Dialect } from '../db/index.ts'
import { endUserSessions, requireRole } from '../middleware/session.ts'
import { adminUser, hashPassword } from '../lib/users.ts'
import { giftsOf, openAccount, refuseOnUnique } from '../lib/accounts.ts'
import { bodyId, paramId } from '../lib/query.ts'
import { must, rule } from '../lib/problems.ts'
import {
  deleteUserForGood,
  findUser,
  findUserByUsername,
  findUserForUpdate,
  listUsers,
  searchUsers,
  setRoleAndStatus,
  updateUser,
  type UserChanges,
  type UserRow,
} from '../db/users.ts'
import { writeAccountLogs } from '../db/account-logs.ts'
import { outranks, ROLE, USER_STATUS } from '../../domain/roles.ts'
import { DISPLAY_NAME_MAX, PASSWORD_MAX, passwordProblem, USERNAME_MAX } from '../../domain/account-rules.ts'
import { QUOTA_MAX } from '../../domain/quota.ts'

const SEARCH_LIMIT = 100

const username = z.string().trim().min(1).max(USERNAME_MAX)
const displayName = z.string().trim().max(DISPLAY_NAME_MAX)
const password = z.string().max(PASSWORD_MAX).superRefine(rule(passwordProblem))
const group = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .superRefine(must((g: string) => /^[^,\s]+$/.test(g), 'users.groupName'))

const createBody = z.object({
  username,
  display_name: optional(displayName.optional()),
  password,
  role: optional(z.union([z.literal(ROLE.user), z.literal(ROLE.admin)]).optional()),
})

const updateBody = z.object({
  id: bodyId,
  username: optional(username.optional()),
  display_name: optional(displayName.optional()),
  password: optional(z.union([z.literal(''), password]).optional()),
  quota: optional(z.number().int().min(0).max(QUOTA_MAX).optional()),
  group: optional(group.optional()),
})
type UserEdit = z.infer<typeof updateBody>

const ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete'] as const
type Action = (typeof ACTIONS)[number]

const manageBody = z.object({
  id: optional(bodyId.optional()),
  username: optional(z.string().trim().min(1).max(64).optional()),
  action: z.enum(ACTIONS),
})

const searchQuery = z.object({
  keyword: optional(z.string().trim().max(64).default('')),
  group: optional(z.string().trim().max(64).default('')),
})

type C = Context<Env>

/** The user an administrator may act on, or a refusal. */
function actOn(me: UserRow, target: UserRow | undefined): UserRow {
  if (!target) refuse('users.notFound')
  // data names the reason, so a console can show what it may instead of an error
  if (!outranks(me.role, target.role)) refuse('users.outranked', { data: { outranked: true } })
  return target
}

/** Role and status after an action (spec section 4): root is never demoted, disabled or deleted; only root promotes. */
function afterAction(me: UserRow, target: UserRow, action: Action): { role: number; status: number } {
  const now = { role: target.role, status: target.status }
  const isRoot = target.role >= ROLE.root
  if (target.deleted_at !== null && action !== 'delete') refuse('users.cancelledOnlyDelete')
  switch (action) {
    case 'promote':
      if (me.role < ROLE.root) refuse('users.onlyRootPromotes')
      if (target.role >= ROLE.admin) refuse('users.alreadyAdmin')
      return { ...now, role: ROLE.admin }
    case 'demote':
      if (isRoot) refuse('users.rootNotDemoted')
      if (target.role === ROLE.user) refuse('users.alreadyUser')
      return { ...now, role: ROLE.user }
    case 'disable':
      if (isRoot) refuse('users.rootNotDisabled')
      return { ...now, status: USER_STATUS.disabled }
    case 'enable':
      return { ...now, status: USER_STATUS.enabled }
    case 'delete':
      if (isRoot) refuse('users.rootNotDeleted')
      return now
  }
}

async function createUser(c: C) {
  const { db, options, bus } = c.get('ctx')
  const body = await readBody(c, createBody)
  const role = body.role ?? ROLE.user
  if (role >= c.get('user').role) refuse('users.roleTooHigh')
  if (await findUserByUsername(db, body.username)) refuse('users.nameTaken')
  const user = {
    username: body.username,
    password: await hashPassword(body.password),
    display_name: body.display_name || body.username,
    role,
    created_time: nowSeconds(),
  }
  const created = await openAccount(db, user, giftsOf(options, false)).catch(refuseOnUnique('users.nameTaken'))
  bus.emit('users', created.id)
  return ok(c, adminUser(created), 'users.created')
}

/** Applies an administrator's edit to the locked row; a quota change writes an admin log. */
async function applyEdit(tx: Kysely<DB>, dialect: Dialect, me: UserRow, body: UserEdit, hash?: string): Promise<UserRow> {
  const target = actOn(me, await findUserForUpdate(tx, dialect, body.id))
  const changes: UserChanges = {}
  if (body.username !== undefined && body.username !== target.username) changes.username = body.username
  if (body.display_name !== undefined) changes.display_name = body.display_name
  if (hash) changes.password = hash
  if (body.group !== undefined) changes.group = body.group
  if (body.quota !== undefined && body.quota !== target.quota) changes.quota = body.quota
  if (Object.keys(changes).length === 0) return target
  const updated = await updateUser(tx, target.id, changes)
  if (body.quota !== undefined && changes.quota !== undefined) {
    const detail = { kind: 'admin.quotaChanged', admin: me.username, user: target.username, from: target.quota, to: body.quota } as const
    await writeAccountLogs(tx, [{ userId: target.id, username: updated.username, at: nowSeconds(), detail }])
  }
  return updated
}

async function editUser(c: C) {
  const { db, database, bus } = c.get('ctx')
  const body = await readBody(c, updateBody)
  const hash = body.password ? await hashPassword(body.password) : undefined
  const user = await db
    .transaction()
    .execute((tx) => applyEdit(tx, database.dialect, c.get('user'), body, hash))
    .catch(refuseOnUnique('users.nameTaken'))
  if (hash) await endUserSessions(c.get('ctx'), user.id)
  bus.emit('users', user.id)
  return ok(c, adminUser(user), 'account.infoUpdated')
}

async function manageUser(c: C) {
  const { db, bus } = c.get('ctx')
  const body = await readBody(c, manageBody)
  if (body.id === undefined && body.username === undefined) refuse('users.idOrUsername', { field: 'id' })
  const found = body.id !== undefined ? await findUser(db, body.id) : await findUserByUsername(db, body.username!)
  const target = actOn(c.get('user'), found)
  const next = afterAction(c.get('user'), target, body.action)
  if (body.action === 'delete') {
    const tokenIds = await deleteUserForGood(db, target.id)
    for (const id of tokenIds) bus.emit('tokens', id)
  } else if (!(await setRoleAndStatus(db, target, next))) {
    refuse('users.changedMeanwhile')
  }
  // a role change, a disable or a delete takes effect at once: the user signs in again
  if (next.role !== target.role || next.status !== target.status || body.action === 'delete') await endUserSessions(c.get('ctx'), target.id)
  bus.emit('users', target.id)
  return ok(c, next, 'users.done')
}

export function usersRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)

  app.on('GET', ['/user/', '/user'], admin, async (c) => {
    const { page, size } = readQuery(c, pagingQuery)
    return ok(c, (await listUsers(ctx.db, page, size)).map(adminUser))
  })
  app.get('/user/search', admin, async (c) => {
    const q = readQuery(c, searchQuery)
    return ok(c, (await searchUsers(ctx.db, q.keyword, q.group, SEARCH_LIMIT)).map(adminUser))
  })
  app.get('/user/:id{[0-9]+}', admin, async (c) => ok(c, adminUser(actOn(c.get('user'), await findUser(ctx.db, paramId(c))))))
  app.on('POST', ['/user/', '/user'], admin, createUser)
  app.on('PUT', ['/user/', '/user'], admin, editUser)
  app.post('/user/manage', admin, manageUser)
  app.on('GET', ['/group/', '/group'], admin, (c) => {
    const ratios = ctx.options.json<Record<string, unknown>>('GroupRatio', {})
    return ok(c, ratios && typeof ratios === 'object' && !Array.isArray(ratios) ? Object.keys(ratios) : [])
  })
  return app
}
