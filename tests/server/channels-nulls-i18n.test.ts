/**
 * Two rules across the channel routes: null reads as an absent field, and answers come in the
 * caller's language; on SQLite and PostgreSQL.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, assertRefused } from './helpers.ts'
import { channelsSuite, base, closedPort } from './channels-fixture.ts'

for (const dialect of dialects) {
  describe(`channels (${dialect})`, () => {
    const fx = channelsSuite(dialect)

    it('reads null as absent on every optional field of create, update and the account checks', async () => {
      const optional = [
        'type',
        'openai_organization',
        'max_input_tokens',
        'base_url',
        'other',
        'model_mapping',
        'status_code_mapping',
        'group',
        'auto_ban',
        'test_model',
        'status',
        'priority',
        'weight',
      ]
      const nulls = Object.fromEntries(optional.map((f) => [f, null]))
      const created = await fx.admin.post('/api/channel/', { name: 'nulls', key: 'sk-null', models: 'gpt-4o', ...nulls })
      assert.equal(created.body.success, true, created.body.message)
      const row = await fx.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', created.body.data[0].id).executeTakeFirstOrThrow()
      assert.deepEqual(
        [row.type, row.group, row.status, row.priority, row.weight, row.auto_ban, row.base_url],
        [1, 'default', 1, 0, 0, 1, ''],
      )
      await fx.admin.put('/api/channel/', { id: row.id, name: 'kept', priority: 7, base_url: fx.upstream.url, test_model: 'gpt-4o' })
      const update = await fx.admin.put('/api/channel/', { id: row.id, name: null, key: null, models: null, ...nulls })
      assert.equal(update.body.success, true, update.body.message)
      const after = await fx.s.ctx.db.selectFrom('channels').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
      assert.deepEqual(
        [after.name, after.key, after.models, after.priority, after.base_url, after.test_model],
        ['kept', 'sk-null', 'gpt-4o', 7, fx.upstream.url, 'gpt-4o'],
      )
      const checks = await fx.admin.post('/api/channel/dooy', { act: 'check_viggle', type: null, status: null })
      assert.equal(checks.body.success, true, checks.body.message)
      // a missing name is still refused: null is "not given", and a new channel needs one
      assertRefused(await fx.admin.post('/api/channel/', { name: null, key: 'sk-x', models: 'gpt-4o' }))
    })

    it("answers in the caller's language, the spec's English otherwise", async () => {
      const zh = { 'accept-language': 'zh-CN' }
      const missing = await fx.admin.call('GET', '/api/channel/999999', undefined, zh)
      assert.deepEqual([missing.body.success, missing.body.message], [false, '渠道不存在，请刷新后重试'])
      const none = await fx.admin.call('POST', '/api/channel/batch', { ids: [] }, zh)
      assert.equal(none.body.message, '请先选择要删除的渠道')
      const created = await fx.admin.call('POST', '/api/channel/', { ...base, key: 'sk-a\nsk-b\nsk-c' }, zh)
      assert.equal(created.body.message, '已创建 3 个渠道')
      assert.equal((await fx.admin.post('/api/channel/', { ...base, key: 'sk-a\nsk-b' })).body.message, '2 channels created')
      const claude = await fx.create({ type: 14, base_url: fx.upstream.url })
      assert.equal(
        (await fx.admin.call('GET', `/api/channel/fetch_models/${claude.id}`, undefined, zh)).body.message,
        '仅支持 OpenAI 接口格式',
      )
      const down = await fx.create({ type: 1, key: 'sk-good', base_url: `http://127.0.0.1:${await closedPort()}` })
      const r = await fx.admin.call('GET', `/api/channel/fetch_models/${down.id}`, undefined, zh)
      assert.equal(r.body.message, '获取模型列表失败：连接被拒绝（ECONNREFUSED）')
      const act = await fx.admin.call('POST', '/api/channel/dooy', { act: 'check_luma' }, zh)
      assert.deepEqual([act.body.message, act.body.data.field], ['act 必须是以下之一：check_viggle, check_suno', 'act'])
    })
  })
}
