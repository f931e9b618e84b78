import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dialects, startServer, type TestServer } from './helpers.ts'

for (const dialect of dialects) {
  describe(`pricing (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
      const ability = (group: string, model: string, enabled = 1, channel_id = 1) => ({
        group,
        model,
        channel_id,
        enabled,
        priority: 0,
        weight: 0,
      })
      await s.ctx.db
        .insertInto('abilities')
        .values([
          ability('default', 'gpt-4o'),
          ability('vip', 'gpt-4o'),
          ability('default', 'mj_imagine'),
          ability('vip', 'secret-model'),
          ability('default', 'off-model', 0),
          ability('default', 'my-own-model'),
          ability('default', 'gpt-4o', 1, 2),
        ])
        .execute()
      await s.ctx.options.set('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'secret-model': 3 }))
      await s.ctx.options.set('CompletionRatio', JSON.stringify({ 'gpt-4o': 4 }))
      await s.ctx.options.set('ModelPrice', JSON.stringify({ mj_imagine: 0.1 }))
      await s.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.8, hidden: 0.1 }))
    })
    after(() => s.close())

    const byModel = (data: any[]) => new Map(data.map((d) => [d.model_name, d]))

    it('lists every enabled model with its prices for a signed-out visitor, in the default group', async () => {
      const r = await s.anon.get('/api/pricing')
      assert.equal(r.status, 200)
      assert.equal(r.body.success, true)
      assert.equal(r.body.group_ratio, 1, "group_ratio is the caller's group's number")
      assert.equal(r.body.group, 'default')
      const m = byModel(r.body.data)
      assert.deepEqual([...m.keys()].sort(), ['gpt-4o', 'mj_imagine', 'my-own-model', 'secret-model'])
      assert.deepEqual(m.get('gpt-4o'), {
        model_name: 'gpt-4o',
        available: true,
        quota_type: 0,
        model_ratio: 1.25,
        completion_ratio: 4,
        model_price: -1,
      })
      assert.deepEqual(m.get('mj_imagine'), {
        model_name: 'mj_imagine',
        available: true,
        quota_type: 1,
        model_ratio: 0,
        completion_ratio: 1,
        model_price: 0.1,
      })
      assert.equal(m.get('my-own-model').model_ratio, 30, 'an unpriced model without a ratio costs 30')
      assert.equal(m.get('secret-model').available, false, 'not in the default group')
    })

    it("answers availability and the group ratio for the caller's own group only", async () => {
      const vip = await s.user({ group: 'vip' })
      const r = await vip.get('/api/pricing')
      assert.equal(r.body.group_ratio, 0.8)
      assert.equal(r.body.group, 'vip')
      assert.ok(!JSON.stringify(r.body).includes('hidden'), 'other groups never leak')
      const m = byModel(r.body.data)
      assert.equal(m.get('secret-model').available, true)
      assert.equal(m.get('mj_imagine').available, false)
      const odd = await s.user({ group: 'nogroup' })
      const oddAnswer = (await odd.get('/api/pricing')).body
      assert.deepEqual([oddAnswer.group, oddAnswer.group_ratio], ['nogroup', 1])
    })
  })
}
