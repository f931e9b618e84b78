/**
 * The Suno and Viggle account checks (POST /api/channel/dooy): failing accounts disabled, passing
 * auto-disabled ones enabled again, manual disables left alone; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, assertRefused } from './helpers.ts'
import { channelsSuite } from './channels-fixture.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('checks Suno accounts: disables failing ones (auto_ban 1), keeps others, answers counts', async () => {
      await fx.s.ctx.options.set('SunoServer', fx.upstream.url)
      const good = await fx.create({ type: 41, key: 'sk-good-s', base_url: fx.upstream.url, models: 'suno_music' })
      const bad = await fx.create({ type: 41, key: 'sk-bad', base_url: fx.upstream.url, models: 'suno_music' })
      const empty = await fx.create({ type: 41, key: 'sk-empty', base_url: fx.upstream.url, models: 'suno_music' })
      const noBan = await fx.create({ type: 41, key: 'sk-bad', base_url: fx.upstream.url, models: 'suno_music', auto_ban: 0 })
      const viaOption = await fx.create({ type: 41, key: 'sk-good-o', models: 'suno_music' })
      const viggle = await fx.create({ type: 45, key: 'sk-bad', base_url: fx.upstream.url, models: 'vg_generate' })
      fx.events.length = 0
      fx.upstream.seen.length = 0
      const r = await fx.admin.post('/api/channel/dooy', { act: 'check_suno', type: 41, status: 1 })
      assert.equal(r.body.success, true, r.body.message)
      assert.equal(r.body.data.checked, 5)
      assert.equal(r.body.data.disabled, 2)
      assert.equal(r.body.data.enabled, 0)
      assert.deepEqual(r.body.data.failed.map((f: { id: number }) => f.id).sort(), [bad.id, empty.id, noBan.id].sort())
      assert.ok(fx.upstream.seen.every((x) => x.path === '/api/get_limit'))
      const status = async (id: number) =>
        (await fx.s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(good.id), 1)
      assert.equal(await status(bad.id), 3)
      assert.equal(await status(empty.id), 3)
      assert.equal(await status(noBan.id), 1, 'auto_ban 0 is never disabled')
      assert.equal(await status(viaOption.id), 1, 'an empty base_url uses the SunoServer option')
      assert.equal(await status(viggle.id), 1, 'other types are not checked')
      assert.ok((await fx.abilities(bad.id)).every((a) => a.enabled === 0))
      const info = await fx.s.ctx.db.selectFrom('channels').select('other_info').where('id', '=', bad.id).executeTakeFirstOrThrow()
      assert.match(JSON.parse(info.other_info).status_reason, /Suno account check failed: HTTP 403 account banned/)
      // read back in the reader's language: the check's own failure, nested in the reason, too
      const reason = async (id: number, lang: string) =>
        JSON.parse((await fx.admin.call('GET', `/api/channel/${id}`, undefined, { 'accept-language': lang })).body.data.other_info)
          .status_reason
      assert.equal(await reason(bad.id, 'zh-CN'), 'Suno 账号检查未通过：HTTP 403 account banned')
      assert.equal(await reason(empty.id, 'zh-CN'), 'Suno 账号检查未通过：已没有剩余点数')
      assert.equal(await reason(empty.id, 'en'), 'Suno account check failed: no credits left')
      assert.deepEqual(fx.events.sort(), [bad.id, empty.id].sort())
    })

    it('checks Viggle accounts and re-enables auto-disabled ones that pass', async () => {
      const back = await fx.create({ type: 45, key: 'sk-good-v', base_url: fx.upstream.url, models: 'vg_generate', status: 3 })
      const still = await fx.create({ type: 45, key: 'sk-bad', base_url: fx.upstream.url, models: 'vg_generate', status: 3 })
      const manual = await fx.create({ type: 45, key: 'sk-good-v', base_url: fx.upstream.url, models: 'vg_generate', status: 2 })
      fx.upstream.seen.length = 0
      const r = await fx.admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 3 })
      assert.equal(r.body.success, true, r.body.message)
      assert.deepEqual([r.body.data.checked, r.body.data.enabled, r.body.data.disabled], [2, 1, 0])
      assert.ok(fx.upstream.seen.every((x) => x.path === '/viggle/template2/tag'))
      const status = async (id: number) =>
        (await fx.s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(back.id), 1)
      assert.equal(await status(still.id), 3)
      assert.equal(await status(manual.id), 2)
      assert.ok((await fx.abilities(back.id)).every((a) => a.enabled === 1))
      const enabledOnly = await fx.admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 1 })
      assert.deepEqual([enabledOnly.body.data.checked, enabledOnly.body.data.disabled], [2, 0])
    })

    it("checks, on the console's own request (status 1), enabled and automatically disabled channels alike", async () => {
      await fx.s.ctx.db.updateTable('channels').set({ status: 2 }).where('type', '=', 45).execute()
      const back = await fx.create({ type: 45, key: 'sk-good-v', base_url: fx.upstream.url, models: 'vg_generate', status: 3 })
      const failing = await fx.create({ type: 45, key: 'sk-bad', base_url: fx.upstream.url, models: 'vg_generate' })
      const manual = await fx.create({ type: 45, key: 'sk-good-v', base_url: fx.upstream.url, models: 'vg_generate', status: 2 })
      // the body the console's "check Viggle" button sends (src/api/channels.ts)
      const r = await fx.admin.post('/api/channel/dooy', { act: 'check_viggle', type: 45, status: 1 })
      assert.equal(r.body.success, true, r.body.message)
      assert.deepEqual([r.body.data.checked, r.body.data.enabled, r.body.data.disabled], [2, 1, 1])
      const status = async (id: number) =>
        (await fx.s.ctx.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
      assert.equal(await status(back.id), 1)
      assert.equal(await status(failing.id), 3)
      assert.equal(await status(manual.id), 2, 'a manual disable stands')
    })

    it('refuses an unknown act or a type that does not fit it', async () => {
      const unknown = await fx.admin.post('/api/channel/dooy', { act: 'check_luma', type: 43, status: 1 })
      assertRefused(unknown)
      assert.match(unknown.body.message, /^act /)
      const wrongType = await fx.admin.post('/api/channel/dooy', { act: 'check_suno', type: 45, status: 1 })
      assertRefused(wrongType)
      assert.match(wrongType.body.message, /^type must be 41/)
      assertRefused(await fx.admin.post('/api/channel/dooy', { type: 41 }))
    })
  })
}
