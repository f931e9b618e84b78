/**
 * Sign-in and binding with Telegram's login widget: the widget hash, its age and replay, and binds
 * only with the state the settings page started (issue 10 attack 2); on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, Client, assertRefused } from './helpers.ts'
import { oauthSuite, telegramQuery, now } from './oauth-fixture.ts'

for (const dialect of dialects) {
  describe(`oauth sign-in and binding (${dialect})`, () => {
    const fx = oauthSuite(dialect)

    describe('Telegram', () => {
      const widget = (id: string, extra: Record<string, string> = {}) => ({
        id,
        first_name: 'Tele',
        last_name: 'Gram',
        username: `tg${id}`,
        photo_url: 'https://t.me/i/userpic/320/x.jpg',
        auth_date: String(now()),
        ...extra,
      })

      it('signs in with a good widget hash, registering telegram_<n> first', async () => {
        const c = new Client(fx.s)
        const r = await c.get(`/api/oauth/telegram/login?${telegramQuery(widget('9001'))}`)
        assert.equal(r.body.success, true, r.body.message)
        assert.match(r.body.data.username, /^telegram_\d+$/)
        assert.equal(r.body.data.telegram_id, '9001')
        assert.equal(r.body.data.display_name, 'Tele Gram')
        assert.equal((await c.get('/api/user/self')).body.data.id, r.body.data.id)
        // Telegram signs only the fields it has; a page that sends the missing ones empty still passes
        const { last_name: _none, ...noLastName } = widget('9001')
        const again = await new Client(fx.s).get(`/api/oauth/telegram/login?${telegramQuery(noLastName)}&last_name=`)
        assert.equal(again.body.success, true, again.body.message)
        assert.equal(again.body.data.id, r.body.data.id)
      })

      it('refuses a bad hash, another bot, a changed field, and a login older than five minutes', async () => {
        const tampered = new URLSearchParams(telegramQuery(widget('9002')))
        tampered.set('id', '1')
        const cases = [
          telegramQuery(widget('9002')).replace(/hash=[0-9a-f]+/, `hash=${'0'.repeat(64)}`),
          telegramQuery(widget('9002'), '999:other-bot'),
          tampered.toString(),
          telegramQuery(widget('9002', { auth_date: String(now() - 86400 - 60) })),
        ]
        for (const q of cases) {
          const c = new Client(fx.s)
          const r = await c.get(`/api/oauth/telegram/login?${q}`)
          assert.equal(r.body.success, false, q)
          assert.equal(c.cookie, '')
        }
        const old = await fx.s.anon.get(
          `/api/oauth/telegram/login?${telegramQuery(widget('9002', { auth_date: String(now() - 86400 - 60) }))}`,
        )
        assert.match(old.body.message, /expired/)
        assert.equal((await fx.userBy('telegram_id', '9002')).length, 0)
        assert.equal((await fx.userBy('telegram_id', '1')).length, 0)
      })

      /** The state the settings page asks for before showing the widget; the widget's answer comes back with it. */
      const bindState = async (c: Client) => {
        const r = await c.get('/api/oauth/telegram/state')
        assert.equal(r.body.success, true, r.body.message)
        return `state=${encodeURIComponent(r.body.data)}`
      }

      it('binds through the widget auth URL with the state the settings page started, and goes back to /setting', async () => {
        assert.equal((await fx.s.anon.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9003'))}`)).status, 401)
        const u = await fx.s.user()
        const r = await u.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9003'))}&${await bindState(u)}`)
        assert.equal(r.status, 302)
        assert.equal(r.headers.get('location'), '/setting')
        assert.equal((await u.get('/api/user/self')).body.data.telegram_id, '9003')
        const other = await fx.s.user()
        const taken = await other.get(
          `/api/oauth/telegram/bind?${telegramQuery(widget('9003', { auth_date: String(now() - 1) }))}&${await bindState(other)}`,
        )
        assert.equal(taken.body.success, false)
        const forged = await other.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9004'), 'x:y')}&${await bindState(other)}`)
        assert.equal(forged.body.success, false)
        assert.equal((await other.get('/api/user/self')).body.data.telegram_id, '')
      })

      it("refuses a bind (issue 10 attack 2) without a state, with another user's state, or with a used state", async () => {
        const attacker = await fx.s.user()
        const victim = await fx.s.user()
        const attackerState = await bindState(attacker)
        const tries = [
          `/api/oauth/telegram/bind?${telegramQuery(widget('9010'))}`,
          `/api/oauth/telegram/bind?${telegramQuery(widget('9011'))}&${attackerState}`,
        ]
        for (const path of tries) assertRefused(await victim.get(path), path)
        const own = await bindState(victim)
        const first = await victim.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9012'))}&${own}`)
        assert.equal(first.status, 302)
        await fx.s.ctx.db.updateTable('users').set({ telegram_id: '' }).where('id', '=', victim.id).execute()
        assertRefused(await victim.get(`/api/oauth/telegram/bind?${telegramQuery(widget('9013'))}&${own}`), 'a used state')
        assert.equal((await victim.get('/api/user/self')).body.data.telegram_id, '')
      })

      it('accepts a widget answer once, and refuses one older than five minutes (no replay)', async () => {
        const q = telegramQuery(widget('9020'))
        assert.equal((await new Client(fx.s).get(`/api/oauth/telegram/login?${q}`)).body.success, true)
        const replay = await new Client(fx.s).get(`/api/oauth/telegram/login?${q}`)
        assertRefused(replay, 'a replayed answer')
        assert.match(replay.body.message, /already used/)
        const stale = await new Client(fx.s).get(
          `/api/oauth/telegram/login?${telegramQuery(widget('9020', { auth_date: String(now() - 6 * 60) }))}`,
        )
        assert.match(stale.body.message, /expired/)
      })

      it('refuses a banned user and is refused while Telegram sign-in is off', async () => {
        const u = await fx.s.user()
        await fx.s.ctx.db.updateTable('users').set({ telegram_id: '9005', status: 2 }).where('id', '=', u.id).execute()
        assert.match((await new Client(fx.s).get(`/api/oauth/telegram/login?${telegramQuery(widget('9005'))}`)).body.message, /banned/)
        await fx.s.ctx.options.set('TelegramOAuthEnabled', 'false')
        try {
          const r = await new Client(fx.s).get(`/api/oauth/telegram/login?${telegramQuery(widget('9006'))}`)
          assert.match(r.body.message, /not enabled sign-in with Telegram/)
          assert.equal((await fx.userBy('telegram_id', '9006')).length, 0)
        } finally {
          await fx.s.ctx.options.set('TelegramOAuthEnabled', 'true')
        }
      })
    })
  })
}
