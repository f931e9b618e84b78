import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, Client, type TestServer, assertRefused } from './helpers.ts'

for (const dialect of dialects) {
  describe(`admin users (${dialect})`, () => {
    let s: TestServer
    let root: Client
    const events: Array<[string, number | undefined]> = []
    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      s.ctx.bus.on((kind, id) => events.push([kind, id]))
    })
    after(() => s.close())

    const row = (id: number) => s.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
    const login = async (username: string, password: string) =>
      (await new Client(s).post('/api/user/login', { username, password })).body.success

    it('lists ten users a page, newest first, cancelled ones included, without secrets', async () => {
      const made = []
      for (let i = 0; i < 12; i++) made.push(await s.user())
      await s.ctx.db
        .updateTable('users')
        .set({ deleted_at: 1_700_000_000, access_token: 'secret-access-token' })
        .where('id', '=', made[11]!.id)
        .execute()
      const first = await root.get('/api/user/?p=0')
      assert.equal(first.body.success, true)
      const page0 = first.body.data as any[]
      assert.equal(page0.length, 10)
      assert.deepEqual(
        page0.map((u) => u.id),
        [...page0.map((u) => u.id)].sort((a, b) => b - a),
      )
      assert.equal(page0[0].id, made[11]!.id)
      assert.ok(page0[0].DeletedAt, 'a cancelled user carries DeletedAt')
      assert.equal(page0[1].DeletedAt, null)
      for (const u of page0) {
        assert.equal(u.password, undefined)
        assert.equal(u.access_token, undefined)
      }
      const page1 = (await root.get('/api/user/?p=1')).body.data as any[]
      assert.ok(page1.length >= 3)
      assert.ok(page1[0].id < page0[9].id)
    })

    it('searches by username, display name, e-mail and id, and by group', async () => {
      const a = await s.user({ username: 'findme_a', group: 'vip' })
      const b = await s.user({ username: 'other_b' })
      await s.ctx.db
        .updateTable('users')
        .set({ email: 'Someone@Example.com', display_name: 'Display Zed' })
        .where('id', '=', b.id)
        .execute()
      const ids = async (q: string) => ((await root.get(`/api/user/search?${q}`)).body.data as any[]).map((u) => u.id)
      assert.deepEqual(await ids('keyword=findme'), [a.id])
      assert.deepEqual(await ids('keyword=example.com'), [b.id])
      assert.deepEqual(await ids('keyword=zed'), [b.id])
      assert.ok((await ids(`keyword=${b.id}`)).includes(b.id), 'a numeric keyword matches the id')
      assert.deepEqual(await ids('keyword=findme&group=vip'), [a.id])
      assert.deepEqual(await ids('keyword=findme&group=default'), [])
      assert.deepEqual(await ids('keyword=%25'), [], 'LIKE wildcards are literal')
      const all = (await root.get('/api/user/search?keyword=')).body.data as any[]
      assert.ok(all.length > 2)
      assert.equal(all[0].password, undefined)
    })

    it('reads one user; an admin cannot read a user of the same or a higher role', async () => {
      const admin = await s.user({ role: 10 })
      const other = await s.user({ role: 10 })
      const plain = await s.user({ quota: 42 })
      const r = await admin.get(`/api/user/${plain.id}`)
      assert.equal(r.body.success, true)
      assert.equal(r.body.data.quota, 42)
      assert.equal(r.body.data.username, plain.username)
      for (const k of ['used_quota', 'request_count', 'group', 'role', 'status']) assert.ok(k in r.body.data, k)
      assert.equal(r.body.data.password, undefined)
      assert.equal((await admin.get(`/api/user/${other.id}`)).body.success, false)
      assert.equal((await admin.get('/api/user/1')).body.success, false)
      assert.equal((await root.get(`/api/user/${other.id}`)).body.success, true)
      assert.match((await root.get('/api/user/999999')).body.message, /not found/)
      assertRefused(await root.get('/api/user/99999999999999999999999'))
    })

    it('creates users with a hashed password and a role below the caller', async () => {
      const admin = await s.user({ role: 10 })
      const r = await admin.post('/api/user/', { username: 'newbie', display_name: 'New Bie', password: 'newbie-pass' })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(r.body.message, 'user account created')
      const made = await row(r.body.data.id)
      assert.ok(made)
      assert.notEqual(made.password, 'newbie-pass')
      assert.match(made.password, /^\$2[aby]\$/)
      assert.equal(made.role, 1)
      assert.equal(made.display_name, 'New Bie')
      assert.equal(await login('newbie', 'newbie-pass'), true)
      assert.equal((await admin.post('/api/user/', { username: 'admin2', password: 'admin2-pass', role: 10 })).body.success, false)
      const byRoot = await root.post('/api/user/', { username: 'admin2', password: 'admin2-pass', role: 10 })
      assert.equal(byRoot.body.success, true)
      assert.equal(byRoot.body.data.role, 10)
      assert.match((await admin.post('/api/user/', { username: 'newbie', password: 'another-pass' })).body.message, /taken/)
      const long = await admin.post('/api/user/', { username: 'x'.repeat(13), password: 'long-enough' })
      assertRefused(long)
      assert.match(long.body.message, /username/)
      const short = await admin.post('/api/user/', { username: 'shorty', password: 'short' })
      assertRefused(short)
      assert.match(short.body.message, /password/)
      assertRefused(await admin.post('/api/user/', { username: 'longpass', password: 'p'.repeat(21) }))
      assert.equal(
        await s.ctx.db.selectFrom('users').select('id').where('username', 'in', ['shorty', 'longpass']).executeTakeFirst(),
        undefined,
      )
    })

    it('updates a user; a quota change writes a manage log naming old and new quota', async () => {
      const u = await s.user({ quota: 100 })
      const r = await root.put('/api/user/', {
        id: u.id,
        username: u.username,
        display_name: 'Renamed',
        password: '',
        quota: 2500,
        group: 'vip',
      })
      assert.equal(r.body.success, true, r.body.message)
      const after = (await row(u.id))!
      assert.equal(after.display_name, 'Renamed')
      assert.equal(after.quota, 2500)
      assert.equal(after.group, 'vip')
      assert.equal(await login(u.username, 'password123'), true, 'an empty password leaves it unchanged')
      const logs = await s.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', u.id).where('type', '=', 3).execute()
      assert.equal(logs.length, 1)
      assert.match(logs[0]!.content, /100/)
      assert.match(logs[0]!.content, /2500/)
      await root.put('/api/user/', { id: u.id, display_name: 'Again' })
      assert.equal(
        (await s.ctx.db.selectFrom('logs').select('id').where('user_id', '=', u.id).where('type', '=', 3).execute()).length,
        1,
        'no log without a quota change',
      )
      assert.equal((await root.put('/api/user/', { id: u.id, password: 'fresh-password' })).body.success, true)
      assert.equal(await login(u.username, 'fresh-password'), true)
      assertRefused(await root.put('/api/user/', { id: u.id, quota: 1.5 }))
      assertRefused(await root.put('/api/user/', { id: u.id, quota: -1 }))
      assertRefused(await root.put('/api/user/', { id: u.id, quota: '100' }))
      assert.equal((await row(u.id))!.quota, 2500)
    })

    it('keeps an admin from updating an admin or root, and usernames unique', async () => {
      const admin = await s.user({ role: 10 })
      const other = await s.user({ role: 10 })
      const plain = await s.user()
      assert.equal((await admin.put('/api/user/', { id: other.id, display_name: 'hacked' })).body.success, false)
      assert.equal((await admin.put('/api/user/', { id: 1, quota: 1 })).body.success, false)
      assert.notEqual((await row(other.id))!.display_name, 'hacked')
      assert.equal((await row(1))!.quota, 100_000_000)
      assert.match((await admin.put('/api/user/', { id: plain.id, username: 'root' })).body.message, /taken/)
    })

    it('manages users: promote (root only), demote, disable, enable, delete', async () => {
      const admin = await s.user({ role: 10 })
      const u = await s.user()
      assert.match((await admin.post('/api/user/manage', { id: u.id, action: 'promote' })).body.message, /only the super administrator/)
      const promoted = await root.post('/api/user/manage', { username: u.username, action: 'promote' })
      assert.deepEqual(promoted.body.data, { status: 1, role: 10 })
      assert.equal(
        (await admin.post('/api/user/manage', { id: u.id, action: 'demote' })).body.success,
        false,
        'an admin cannot act on an admin',
      )
      assert.deepEqual((await root.post('/api/user/manage', { id: u.id, action: 'demote' })).body.data, { status: 1, role: 1 })
      assert.deepEqual((await admin.post('/api/user/manage', { id: u.id, action: 'disable' })).body.data, { status: 2, role: 1 })
      assert.equal((await u.get('/api/user/self')).status, 401, 'a disabled user is locked out at once: the sessions end')
      assert.deepEqual((await admin.post('/api/user/manage', { id: u.id, action: 'enable' })).body.data, { status: 1, role: 1 })
      assert.equal((await u.get('/api/user/self')).status, 401, 'enabling again does not bring the old session back')
      assert.equal((await u.post('/api/user/login', { username: u.username, password: 'password123' })).body.success, true)
      assert.equal((await u.get('/api/user/self')).status, 200)

      await u.post('/api/token/', { name: 'doomed', remain_quota: 10 })
      assert.equal((await s.ctx.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).execute()).length, 1)
      const del = await admin.post('/api/user/manage', { id: u.id, action: 'delete' })
      assert.equal(del.body.success, true)
      assert.equal(await row(u.id), undefined, 'delete is a hard delete')
      assert.equal(
        (await s.ctx.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).execute()).length,
        0,
        "the user's tokens go too",
      )
    })

    it('never demotes, disables or deletes root, and allows only delete on a cancelled account', async () => {
      for (const action of ['demote', 'disable', 'delete']) {
        const r = await root.post('/api/user/manage', { id: 1, action })
        assert.equal(r.body.success, false, action)
      }
      const me = (await row(1))!
      assert.deepEqual([me.role, me.status], [100, 1])
      const u = await s.user()
      await s.ctx.db.updateTable('users').set({ deleted_at: 1_700_000_000 }).where('id', '=', u.id).execute()
      assert.match((await root.post('/api/user/manage', { id: u.id, action: 'enable' })).body.message, /cancelled/)
      assert.equal((await root.post('/api/user/manage', { id: u.id, action: 'delete' })).body.success, true)
      assert.equal((await root.post('/api/user/manage', { id: u.id, action: 'delete' })).body.success, false)
      assertRefused(await root.post('/api/user/manage', { id: 5, action: 'explode' }))
      assertRefused(await root.post('/api/user/manage', { action: 'enable' }))
    })

    it('lists the group names of GroupRatio', async () => {
      await s.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.8, hidden: 2 }))
      assert.deepEqual((await root.get('/api/group/')).body.data, ['default', 'vip', 'hidden'])
    })

    it('tells the caches which users changed', async () => {
      const u = await s.user()
      events.length = 0
      await root.put('/api/user/', { id: u.id, quota: 7 })
      await root.post('/api/user/manage', { id: u.id, action: 'disable' })
      const made = await root.post('/api/user/', { username: 'evented', password: 'evented-pass' })
      assert.deepEqual(
        events.filter(([k]) => k === 'users'),
        [
          ['users', u.id],
          ['users', u.id],
          ['users', made.body.data.id],
        ],
      )
    })
  })
}
