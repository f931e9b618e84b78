/**
 * Sign-in and binding with WeChat through the WeChat login server: registering wechat_<n>, the
 * server's refusals, binding for a signed-in user only; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, Client, assertRefused } from './helpers.ts'
import { oauthSuite } from './oauth-fixture.ts'

for (const dialect of dialects) {
  describe(`oauth sign-in and binding (${dialect})`, () => {
    const fx = oauthSuite(dialect)

    describe('WeChat', () => {
      it('signs in, registering wechat_<n> first, with the token sent to the WeChat server', async () => {
        const c = new Client(fx.s)
        const r = await c.get('/api/oauth/wechat?code=wx-openid-1')
        assert.equal(r.body.success, true, r.body.message)
        assert.match(r.body.data.username, /^wechat_\d+$/)
        assert.equal(r.body.data.wechat_id, 'openid-1')
        assert.equal((await c.get('/api/user/self')).body.data.id, r.body.data.id)
        assert.equal(fx.wechat.seen.at(-1)!.headers.authorization, 'wx-token')
        const again = await new Client(fx.s).get('/api/oauth/wechat?code=wx-openid-1')
        assert.equal(again.body.data.id, r.body.data.id)
      })

      it("passes on the WeChat server's refusal and needs a code", async () => {
        const r = await new Client(fx.s).get('/api/oauth/wechat?code=123456')
        assert.equal(r.body.success, false)
        assert.equal(r.body.message, 'invalid verification code')
        assertRefused(await fx.s.anon.get('/api/oauth/wechat'))
        await fx.s.ctx.options.set('WeChatServerToken', 'wrong')
        try {
          assert.equal((await new Client(fx.s).get('/api/oauth/wechat?code=wx-x')).body.message, 'unauthorised')
        } finally {
          await fx.s.ctx.options.set('WeChatServerToken', 'wx-token')
        }
      })

      it('binds for a signed-in user only, and not an account another user holds', async () => {
        assert.equal((await fx.s.anon.get('/api/oauth/wechat/bind?code=wx-openid-2')).status, 401)
        const u = await fx.s.user()
        const r = await u.get('/api/oauth/wechat/bind?code=wx-openid-2')
        assert.equal(r.body.success, true, r.body.message)
        assert.equal((await u.get('/api/user/self')).body.data.wechat_id, 'openid-2')
        const other = await fx.s.user()
        const taken = await other.get('/api/oauth/wechat/bind?code=wx-openid-2')
        assert.equal(taken.body.success, false)
        assert.match(taken.body.message, /already bound/)
      })

      it('is refused while WeChat sign-in is off', async () => {
        await fx.s.ctx.options.set('WeChatAuthEnabled', 'false')
        try {
          assert.match((await new Client(fx.s).get('/api/oauth/wechat?code=wx-off')).body.message, /not enabled sign-in with WeChat/)
          const u = await fx.s.user()
          assert.equal((await u.get('/api/oauth/wechat/bind?code=wx-off')).body.success, false)
          assert.equal((await fx.userBy('wechat_id', 'off')).length, 0)
        } finally {
          await fx.s.ctx.options.set('WeChatAuthEnabled', 'true')
        }
      })
    })
  })
}
