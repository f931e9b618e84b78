/**
 * The role matrix of the core console calls (users, tokens, redemptions, redeem, options, logs,
 * dashboard data, pricing): every route, called by an anonymous visitor, a disabled user, a user,
 * an admin and root, answers 401, 403 or success exactly as its required role says.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, Client, type TestServer } from './helpers.ts'
import { randomKey } from '../../server/lib/users.ts'

type Caller = 'anon' | 'disabled' | 'user' | 'admin' | 'root'
const RANK: Record<Caller, number> = { anon: -1, disabled: 0, user: 1, admin: 10, root: 100 }

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** 0 public, 1 user, 10 admin, 100 root */
  min: 0 | 1 | 10 | 100
  /** builds a valid request for this caller (fresh fixtures, so each call can succeed) */
  make: (callerId: number) => Promise<{ path: string; body?: unknown }>
  label: string
}

for (const dialect of dialects) {
  describe(`role matrix of the core calls (${dialect})`, () => {
    let s: TestServer
    const clients = {} as Record<Caller, Client & { id: number }>
    let seq = 0

    before(async () => {
      s = await startServer(dialect)
      const root = await s.root()
      clients.anon = Object.assign(s.anon, { id: 1 })
      clients.root = Object.assign(root, { id: 1 })
      clients.admin = await s.user({ role: 10 })
      clients.user = await s.user({ role: 1 })
      clients.disabled = await s.user({ role: 100 })
      await s.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', clients.disabled.id).execute()
    })
    after(() => s.close())

    const freshUser = async () =>
      (
        await s.ctx.db
          .insertInto('users')
          .values({ username: `m${++seq}`, password: 'x', group: 'default' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const freshToken = async (userId: number) =>
      (
        await s.ctx.db
          .insertInto('tokens')
          .values({ user_id: userId, key: randomKey(48), name: 't', remain_quota: 10, group: '' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const freshCode = async () => {
      const key = randomKey(32)
      const { id } = await s.ctx.db.insertInto('redemptions').values({ key, name: 'c', quota: 5 }).returning('id').executeTakeFirstOrThrow()
      return { id, key }
    }
    const at = (path: string, body?: unknown) => async () => ({ path, body })

    const calls: Call[] = [
      { label: 'list users', method: 'GET', min: 10, make: at('/api/user/?p=0') },
      { label: 'search users', method: 'GET', min: 10, make: at('/api/user/search?keyword=m&group=default') },
      { label: 'get user', method: 'GET', min: 10, make: async () => ({ path: `/api/user/${await freshUser()}` }) },
      {
        label: 'create user',
        method: 'POST',
        min: 10,
        make: async () => ({ path: '/api/user/', body: { username: `n${++seq}`, password: 'password-1' } }),
      },
      {
        label: 'update user',
        method: 'PUT',
        min: 10,
        make: async () => ({ path: '/api/user/', body: { id: await freshUser(), quota: 5 } }),
      },
      {
        label: 'manage user',
        method: 'POST',
        min: 10,
        make: async () => ({ path: '/api/user/manage', body: { id: await freshUser(), action: 'disable' } }),
      },
      { label: 'groups', method: 'GET', min: 10, make: at('/api/group/') },

      { label: 'list tokens', method: 'GET', min: 1, make: at('/api/token/?p=0&size=10') },
      { label: 'search tokens', method: 'GET', min: 1, make: at('/api/token/search?keyword=t&token=sk-a') },
      { label: 'get token', method: 'GET', min: 1, make: async (me) => ({ path: `/api/token/${await freshToken(me)}` }) },
      { label: 'create token', method: 'POST', min: 1, make: at('/api/token/', { name: 'k', remain_quota: 1, expired_time: -1 }) },
      {
        label: 'update token',
        method: 'PUT',
        min: 1,
        make: async (me) => ({ path: '/api/token/', body: { id: await freshToken(me), name: 'renamed' } }),
      },
      {
        label: 'token status',
        method: 'PUT',
        min: 1,
        make: async (me) => ({ path: '/api/token/?status_only=true', body: { id: await freshToken(me), status: 2 } }),
      },
      { label: 'delete token/', method: 'DELETE', min: 1, make: async (me) => ({ path: `/api/token/${await freshToken(me)}/` }) },
      { label: 'delete token', method: 'DELETE', min: 1, make: async (me) => ({ path: `/api/token/${await freshToken(me)}` }) },

      { label: 'list codes', method: 'GET', min: 10, make: at('/api/redemption/?p=0') },
      { label: 'search codes', method: 'GET', min: 10, make: at('/api/redemption/search?keyword=c') },
      { label: 'get code', method: 'GET', min: 10, make: async () => ({ path: `/api/redemption/${(await freshCode()).id}` }) },
      { label: 'create codes', method: 'POST', min: 10, make: at('/api/redemption/', { name: 'batch', quota: 10, count: 2 }) },
      {
        label: 'update code',
        method: 'PUT',
        min: 10,
        make: async () => ({ path: '/api/redemption/', body: { id: (await freshCode()).id, name: 'n', quota: 9 } }),
      },
      {
        label: 'code status',
        method: 'PUT',
        min: 10,
        make: async () => ({ path: '/api/redemption/?status_only=true', body: { id: (await freshCode()).id, status: 2 } }),
      },
      { label: 'delete code', method: 'DELETE', min: 10, make: async () => ({ path: `/api/redemption/${(await freshCode()).id}/` }) },
      { label: 'redeem', method: 'POST', min: 1, make: async () => ({ path: '/api/user/topup', body: { key: (await freshCode()).key } }) },

      { label: 'list options', method: 'GET', min: 100, make: at('/api/option/') },
      { label: 'save option', method: 'PUT', min: 100, make: at('/api/option/', { key: 'Notice', value: 'hello' }) },
      { label: 'reset ratios', method: 'POST', min: 100, make: at('/api/option/rest_model_ratio') },

      { label: 'all logs', method: 'GET', min: 10, make: at('/api/log/?p=0&page_size=10&type=0') },
      { label: 'own logs/', method: 'GET', min: 1, make: at('/api/log/self/?p=0') },
      { label: 'own logs', method: 'GET', min: 1, make: at('/api/log/self?p=0') },
      { label: 'log stat', method: 'GET', min: 10, make: at('/api/log/stat?type=0') },
      { label: 'own log stat', method: 'GET', min: 1, make: at('/api/log/self/stat') },
      { label: 'clean logs', method: 'DELETE', min: 100, make: at('/api/log/?target_timestamp=1') },

      { label: 'dashboard', method: 'GET', min: 10, make: at('/api/data/?start_timestamp=0&end_timestamp=100') },
      { label: 'own dashboard', method: 'GET', min: 1, make: at('/api/data/self?start_timestamp=0&end_timestamp=100') },

      { label: 'pricing', method: 'GET', min: 0, make: at('/api/pricing') },
    ]

    for (const call of calls) {
      it(`${call.method} ${call.label}: ${call.min === 0 ? 'public' : `role ${call.min}`}`, async () => {
        for (const who of Object.keys(RANK) as Caller[]) {
          const client = clients[who]
          const { path, body } = await call.make(client.id)
          const r = await client.call(call.method, path, body)
          const rank = RANK[who]
          const want = call.min === 0 ? 200 : who === 'anon' ? 401 : rank < call.min || who === 'disabled' ? 403 : 200
          assert.equal(r.status, want, `${who} ${call.method} ${path}: ${r.body.message}`)
          if (want === 200) assert.equal(r.body.success, true, `${who} ${call.method} ${path}: ${r.body.message}`)
          else assert.equal(r.body.success, false)
        }
      })
    }
  })
}
