import { Hono } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { fail, fields, nowSeconds, ok, readBody, readQuery, type Env } from '../http.ts'
import { requireRole } from '../middleware/session.ts'
import { publicUser, type UserRow } from '../lib/users.ts'
import { DEFAULT_GROUP, ROLE, USER_STATUS } from '../../domain/roles.ts'
import { bodyId, containsText, isUniqueViolation, paramId } from '../lib/query.ts'
import { rule } from '../lib/problems.ts'
import { hashPassword } from './account.ts'
import { DISPLAY_NAME_MAX, PASSWORD_MAX, passwordProblem, USERNAME_MAX } from '../../domain/account-rules.ts'
import { QUOTA_MAX } from '../../domain/quota.ts'
import { LOG_TYPE } from '../../domain/statuses.ts'

const PAGE = 10
const SEARCH_LIMIT = 100

const username = z.string().trim().min(1).max(USERNAME_MAX)
const displayName = z.string().trim().max(DISPLAY_NAME_MAX)
const password = z.string().max(PASSWORD_MAX).superRefine(rule(passwordProblem))
const group = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^,\s]+$/, 'must be one group name without commas or spaces')

const createBody = z.object({
  username,
  display_name: displayName.optional(),
  password,
  role: z.union([z.literal(ROLE.user), z.literal(ROLE.admin)]).optional(),
})

const updateBody = z.object({
  id: bodyId,
  username: username.optional(),
  display_name: displayName.optional(),
  password: z.union([z.literal(''), password]).optional(),
  quota: z.number().int().min(0).max(QUOTA_MAX).optional(),
  group: group.optional(),
})

const manageBody = z
  .object({
    id: bodyId.optional(),
    username: z.string().trim().min(1).max(64).optional(),
    action: z.enum(['promote', 'demote', 'disable', 'enable', 'delete']),
  })
  .refine((b) => b.id !== undefined || b.username !== undefined, { message: 'id or username is required', path: ['id'] })

const searchQuery = z.object({
  keyword: z.string().trim().max(64).optional().default(''),
  group: z.string().trim().max(64).optional().default(''),
})

/** The user as an administrator sees it: no password hash and no access token. */
export function adminUser(u: UserRow) {
  const { access_token: _token, ...rest } = publicUser(u)
  return rest
}

/** An administrator may act on users of a lower role only; root may act on anyone. */
function outranks(me: UserRow, target: UserRow): boolean {
  return me.role >= ROLE.root || target.role < me.role
}

const FORBIDDEN = 'no permission to act on a user of the same or a higher role'

export function usersRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const admin = requireRole(ctx, ROLE.admin)
  const db = ctx.db

  const byId = (id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()

  app.on('GET', ['/user/', '/user'], admin, async (c) => {
    const { p } = readQuery(c, z.object({ p: fields.page }))
    const rows = await db
      .selectFrom('users')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(PAGE)
      .offset(p * PAGE)
      .execute()
    return ok(c, rows.map(adminUser))
  })

  app.get('/user/search', admin, async (c) => {
    const { keyword, group: g } = readQuery(c, searchQuery)
    let q = db.selectFrom('users').selectAll()
    if (keyword) {
      q = q.where((eb) => {
        const any = [containsText('username', keyword), containsText('display_name', keyword), containsText('email', keyword)]
        if (/^\d{1,15}$/.test(keyword)) any.unshift(eb('id', '=', Number(keyword)))
        return eb.or(any)
      })
    }
    if (g) q = q.where('group', '=', g)
    const rows = await q.orderBy('id', 'desc').limit(SEARCH_LIMIT).execute()
    return ok(c, rows.map(adminUser))
  })

  app.get('/user/:id{[0-9]+}', admin, async (c) => {
    const target = await byId(paramId(c))
    if (!target) return fail(c, 'user not found')
    if (!outranks(c.get('user'), target)) return fail(c, FORBIDDEN)
    return ok(c, adminUser(target))
  })

  app.on('POST', ['/user/', '/user'], admin, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, createBody)
    const role = body.role ?? ROLE.user
    if (role >= me.role) return fail(c, 'cannot create a user with a role equal to or higher than your own')
    const taken = await db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirst()
    if (taken) return fail(c, 'the username is already taken, or belongs to a cancelled account')
    const bonus = Math.max(0, Math.trunc(ctx.options.num('QuotaForNewUser')))
    const hash = await hashPassword(body.password)
    const now = nowSeconds()
    let created: UserRow
    try {
      created = await db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('users')
          .values({
            username: body.username,
            password: hash,
            display_name: body.display_name || body.username,
            role,
            status: USER_STATUS.enabled,
            quota: bonus,
            group: DEFAULT_GROUP,
            created_time: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        if (bonus > 0) {
          await tx
            .insertInto('logs')
            .values({
              user_id: row.id,
              username: row.username,
              created_at: now,
              type: LOG_TYPE.system,
              content: `new user bonus: ${bonus} quota`,
            })
            .execute()
        }
        return row
      })
    } catch (e) {
      if (isUniqueViolation(e)) return fail(c, 'the username is already taken, or belongs to a cancelled account')
      throw e
    }
    ctx.bus.emit('users', created.id)
    return ok(c, adminUser(created), 'user account created')
  })

  app.on('PUT', ['/user/', '/user'], admin, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, updateBody)
    const hash = body.password ? await hashPassword(body.password) : undefined
    let result: { error: string } | { user: UserRow }
    try {
      result = await db.transaction().execute(async (tx) => {
        let read = tx.selectFrom('users').selectAll().where('id', '=', body.id)
        if (ctx.database.dialect === 'postgres') read = read.forUpdate()
        const target = await read.executeTakeFirst()
        if (!target) return { error: 'user not found' }
        if (!outranks(me, target)) return { error: FORBIDDEN }
        const changes: Partial<Pick<UserRow, 'username' | 'display_name' | 'password' | 'quota' | 'group'>> = {}
        if (body.username !== undefined && body.username !== target.username) changes.username = body.username
        if (body.display_name !== undefined) changes.display_name = body.display_name
        if (hash) changes.password = hash
        if (body.group !== undefined) changes.group = body.group
        if (body.quota !== undefined && body.quota !== target.quota) changes.quota = body.quota
        if (Object.keys(changes).length === 0) return { user: target }
        await tx.updateTable('users').set(changes).where('id', '=', target.id).execute()
        if (changes.quota !== undefined) {
          await tx
            .insertInto('logs')
            .values({
              user_id: target.id,
              username: changes.username ?? target.username,
              created_at: nowSeconds(),
              type: LOG_TYPE.manage,
              content: `administrator ${me.username} changed the quota of ${target.username} from ${target.quota} to ${changes.quota}`,
            })
            .execute()
        }
        return { user: (await tx.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow()) as UserRow }
      })
    } catch (e) {
      if (isUniqueViolation(e)) return fail(c, 'the username is already taken, or belongs to a cancelled account')
      throw e
    }
    if ('error' in result) return fail(c, result.error)
    ctx.bus.emit('users', result.user.id)
    return ok(c, adminUser(result.user), 'user info updated')
  })

  app.post('/user/manage', admin, async (c) => {
    const me = c.get('user')
    const body = await readBody(c, manageBody)
    const target =
      body.id !== undefined
        ? await byId(body.id)
        : await db.selectFrom('users').selectAll().where('username', '=', body.username!).executeTakeFirst()
    if (!target) return fail(c, 'user not found')
    if (!outranks(me, target)) return fail(c, FORBIDDEN)
    if (target.deleted_at !== null && body.action !== 'delete') return fail(c, 'this account is cancelled; it can only be deleted')
    const isRoot = target.role >= ROLE.root
    let next = { status: target.status, role: target.role }
    switch (body.action) {
      case 'promote':
        if (me.role < ROLE.root) return fail(c, 'only the super administrator can promote users')
        if (target.role >= ROLE.admin) return fail(c, 'the user is already an administrator')
        next = { ...next, role: ROLE.admin }
        break
      case 'demote':
        if (isRoot) return fail(c, 'the super administrator cannot be demoted')
        if (target.role === ROLE.user) return fail(c, 'the user is already an ordinary user')
        next = { ...next, role: ROLE.user }
        break
      case 'disable':
        if (isRoot) return fail(c, 'the super administrator cannot be disabled')
        next = { ...next, status: USER_STATUS.disabled }
        break
      case 'enable':
        next = { ...next, status: USER_STATUS.enabled }
        break
      case 'delete': {
        if (isRoot) return fail(c, 'the super administrator cannot be deleted')
        const tokenIds = await db.transaction().execute(async (tx) => {
          const gone = await tx.deleteFrom('tokens').where('user_id', '=', target.id).returning('id').execute()
          await tx.deleteFrom('users').where('id', '=', target.id).execute()
          return gone.map((t) => t.id)
        })
        ctx.bus.emit('users', target.id)
        for (const id of tokenIds) ctx.bus.emit('tokens', id)
        return ok(c, next, 'operation completed successfully')
      }
    }
    // The role guard in the WHERE clause keeps a concurrent promote/demote from being overwritten.
    const r = await db
      .updateTable('users')
      .set(next)
      .where('id', '=', target.id)
      .where('role', '=', target.role)
      .where('status', '=', target.status)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) return fail(c, 'the user changed meanwhile, reload and retry')
    ctx.bus.emit('users', target.id)
    return ok(c, next, 'operation completed successfully')
  })

  app.on('GET', ['/group/', '/group'], admin, (c) => {
    const ratios = ctx.options.json<Record<string, unknown>>('GroupRatio', {})
    const names = ratios && typeof ratios === 'object' && !Array.isArray(ratios) ? Object.keys(ratios) : []
    return ok(c, names)
  })

  return app
}
