import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readLogDetail } from '../../domain/log-detail.ts'
import { dialects, startServer, type TestServer, assertRefused } from './helpers.ts'

const KEY = 'epay-merchant-key'

/** The epay signature, written out independently of server/lib/epay.ts. */
function md5Sign(params: Record<string, string>, key: string): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
  return createHash('md5')
    .update(keys.map((k) => `${k}=${params[k]}`).join('&') + key)
    .digest('hex')
}

/** The query string a payment platform sends back for a paid order. */
function notifyQuery(fields: Record<string, string>, key = KEY): string {
  const params: Record<string, string> = {
    pid: '1001',
    trade_no: `EP${Date.now()}`,
    type: 'alipay',
    name: 'TUC1',
    trade_status: 'TRADE_SUCCESS',
    ...fields,
  }
  params.sign = md5Sign(params, key)
  params.sign_type = 'MD5'
  return new URLSearchParams(params).toString()
}

for (const dialect of dialects) {
  describe(`wallet: online top-up with epay (${dialect})`, () => {
    let s: TestServer

    before(async () => {
      s = await startServer(dialect)
    })
    after(() => s.close())
    beforeEach(async () => {
      const o = s.ctx.options
      await o.set('PayAddress', 'https://pay.example.com/')
      await o.set('EpayId', '1001')
      await o.set('EpayKey', KEY)
      await o.set('ServerAddress', 'https://gate.example.com')
      await o.set('CustomCallbackAddress', '')
      await o.set('Price', '7.3')
      await o.set('MinTopUp', '1')
      await o.set('TopupGroupRatio', '{"default":1,"vip":0.5}')
    })

    const quotaOf = async (id: number) =>
      (await s.ctx.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota

    async function order(u: Awaited<ReturnType<TestServer['user']>>, amount: number) {
      const r = await u.post('/api/user/pay', { amount, top_up_code: '', payment_method: 'zfb' })
      assert.equal(r.body.success, true, JSON.stringify(r.body))
      return r.body.data as Record<string, string>
    }

    it('needs a signed-in user for amount and pay; the notify is public', async () => {
      assert.equal((await s.anon.post('/api/user/amount', { amount: 2 })).status, 401)
      assert.equal((await s.anon.post('/api/user/pay', { amount: 2, payment_method: 'zfb' })).status, 401)
      const notify = await s.anon.get('/api/user/epay/notify?out_trade_no=x&sign=y')
      assert.equal(notify.status, 200)
      assert.equal(notify.body.message, 'fail')
    })

    it('prices an amount as amount x Price x the top-up ratio of the group', async () => {
      const u = await s.user()
      const r = await u.post('/api/user/amount', { amount: 3, top_up_code: '' })
      assert.deepEqual(r.body, { success: true, message: 'success', data: '21.90' })
      const vip = await s.user({ group: 'vip' })
      assert.equal((await vip.post('/api/user/amount', { amount: 3 })).body.data, '10.95')
      const other = await s.user({ group: 'nogroup' })
      assert.equal((await other.post('/api/user/amount', { amount: 3 })).body.data, '21.90')
      await s.ctx.options.set('Price', '1')
      assert.equal((await u.post('/api/user/amount', { amount: 2 })).body.data, '2.00')
    })

    it('refuses an amount under MinTopUp with the spec wording', async () => {
      const u = await s.user()
      await s.ctx.options.set('MinTopUp', '5')
      const r = await u.post('/api/user/amount', { amount: 4, top_up_code: '' })
      assert.deepEqual(r.body, { success: false, message: 'error', data: 'top-up amount cannot be less than 5' })
      const p = await u.post('/api/user/pay', { amount: 4, top_up_code: '', payment_method: 'wx' })
      assert.deepEqual(p.body, { success: false, message: 'error', data: 'top-up amount cannot be less than 5' })
      assert.equal((await u.post('/api/user/amount', { amount: 5 })).body.success, true)
    })

    it('refuses, naming the field, a malformed amount or payment method', async () => {
      const u = await s.user()
      for (const amount of ['abc', 1.5, 1e12]) {
        const r = await u.post('/api/user/amount', { amount })
        assertRefused(r, String(amount))
        assert.equal(r.body.data.field, 'amount')
      }
      const r = await u.post('/api/user/pay', { amount: 2, payment_method: 'btc' })
      assertRefused(r)
      assert.equal(r.body.data.field, 'payment_method')
    })

    it('refuses to pay until PayAddress, EpayId, EpayKey and ServerAddress are all set', async () => {
      const u = await s.user()
      const o = s.ctx.options
      for (const key of ['PayAddress', 'EpayId', 'EpayKey']) {
        const saved = o.get(key)
        await o.set(key, '')
        const r = await u.post('/api/user/pay', { amount: 2, top_up_code: '', payment_method: 'zfb' })
        assert.deepEqual(r.body, { success: false, message: 'error', data: 'admin has not enabled online top-up' }, key)
        await o.set(key, saved)
      }
      await o.set('ServerAddress', '')
      const r = await u.post('/api/user/pay', { amount: 2, top_up_code: '', payment_method: 'zfb' })
      assert.equal(r.body.success, false)
      assert.match(r.body.data, /server address/)
      assert.equal(await s.ctx.db.selectFrom('top_ups').select('id').where('user_id', '=', u.id).executeTakeFirst(), undefined)
    })

    it('creates a pending order and answers the signed epay form', async () => {
      const u = await s.user({ group: 'vip' })
      const r = await u.post('/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'wx' })
      assert.equal(r.body.success, true)
      assert.equal(r.body.message, 'success')
      assert.equal(r.body.url, 'https://pay.example.com/submit.php')
      const form = r.body.data as Record<string, string>
      assert.deepEqual(Object.keys(form).sort(), [
        'money',
        'name',
        'notify_url',
        'out_trade_no',
        'pid',
        'return_url',
        'sign',
        'sign_type',
        'type',
      ])
      assert.equal(form.pid, '1001')
      assert.equal(form.type, 'wxpay')
      assert.equal(form.money, '36.50')
      assert.equal(form.name, 'TUC10')
      assert.equal(form.notify_url, 'https://gate.example.com/api/user/epay/notify')
      assert.equal(form.return_url, 'https://gate.example.com/log')
      assert.equal(form.sign_type, 'MD5')
      assert.equal(form.sign, md5Sign(form, KEY))
      assert.match(form.out_trade_no, new RegExp(`^USR${u.id}NO[A-Za-z0-9]{6}\\d{10}$`))
      const row = await s.ctx.db.selectFrom('top_ups').selectAll().where('trade_no', '=', form.out_trade_no).executeTakeFirstOrThrow()
      assert.deepEqual([row.user_id, row.amount, row.money, row.status, row.payment_method], [u.id, 10, 36.5, 'pending', 'wxpay'])

      const zfb = await order(u, 2)
      assert.equal(zfb.type, 'alipay')
      await s.ctx.options.set('CustomCallbackAddress', 'https://callback.example.com/')
      assert.equal((await order(u, 2)).notify_url, 'https://callback.example.com/api/user/epay/notify')
    })

    it('credits a signed TRADE_SUCCESS notify once and writes a top-up log', async () => {
      const u = await s.user({ quota: 7 })
      const form = await order(u, 3)
      const emitted: Array<number | undefined> = []
      const off = s.ctx.bus.on((kind, id) => kind === 'users' && emitted.push(id))
      try {
        const first = await s.anon.get(`/api/user/epay/notify?${notifyQuery({ out_trade_no: form.out_trade_no, money: form.money })}`)
        assert.equal(first.body.message, 'success')
        assert.equal(await quotaOf(u.id), 7 + 3 * 500000)
        assert.ok(emitted.includes(u.id))
        const again = await s.anon.get(`/api/user/epay/notify?${notifyQuery({ out_trade_no: form.out_trade_no, money: form.money })}`)
        assert.equal(again.body.message, 'success')
        assert.equal(await quotaOf(u.id), 7 + 3 * 500000)
      } finally {
        off()
      }
      const row = await s.ctx.db.selectFrom('top_ups').selectAll().where('trade_no', '=', form.out_trade_no).executeTakeFirstOrThrow()
      assert.equal(row.status, 'success')
      assert.ok(row.complete_time > 0)
      const logs = await s.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', u.id).where('type', '=', 1).execute()
      assert.equal(logs.length, 1)
      assert.equal(logs[0].quota, 1500000)
      assert.equal(logs[0].username, u.username)
      assert.match(logs[0].content, /online top-up/)
      assert.deepEqual(readLogDetail(logs[0].other), {
        kind: 'topup.paid',
        amount: 3,
        quota: 1500000,
        money: Number(form.money),
        method: 'alipay',
        trade_no: form.out_trade_no,
      })
    })

    it('follows QuotaPerUnit when crediting', async () => {
      await s.ctx.options.set('QuotaPerUnit', '1000')
      try {
        const u = await s.user()
        const form = await order(u, 4)
        assert.equal(
          (await s.anon.get(`/api/user/epay/notify?${notifyQuery({ out_trade_no: form.out_trade_no, money: form.money })}`)).body.message,
          'success',
        )
        assert.equal(await quotaOf(u.id), 4000)
      } finally {
        await s.ctx.options.set('QuotaPerUnit', '500000')
      }
    })

    it('answers fail and changes nothing for a bad signature, foreign merchant, wrong money or unknown order', async () => {
      const u = await s.user()
      const form = await order(u, 2)
      const base = { out_trade_no: form.out_trade_no, money: form.money }
      const tampered = new URLSearchParams(notifyQuery(base))
      tampered.set('money', '0.01')
      const cases = [
        notifyQuery(base, 'not-the-key'),
        tampered.toString(),
        notifyQuery({ ...base, pid: '2002' }),
        notifyQuery({ ...base, money: '0.01' }),
        notifyQuery({ ...base, out_trade_no: 'USR1NOnothing1' }),
        notifyQuery(base).replace(/sign=[0-9a-f]+/, 'sign='),
      ]
      for (const q of cases) {
        const r = await s.anon.get(`/api/user/epay/notify?${q}`)
        assert.equal(r.body.message, 'fail', q)
      }
      const pending = await s.anon.get(`/api/user/epay/notify?${notifyQuery({ ...base, trade_status: 'WAIT_BUYER_PAY' })}`)
      assert.equal(pending.body.message, 'success')
      assert.equal(await quotaOf(u.id), 0)
      const row = await s.ctx.db.selectFrom('top_ups').select('status').where('trade_no', '=', form.out_trade_no).executeTakeFirstOrThrow()
      assert.equal(row.status, 'pending')

      await s.ctx.options.set('EpayKey', '')
      assert.equal((await s.anon.get(`/api/user/epay/notify?${notifyQuery(base)}`)).body.message, 'fail')
      assert.equal(await quotaOf(u.id), 0)
    })

    it('credits once under 20 concurrent duplicate notifies', async () => {
      const u = await s.user({ quota: 100 })
      const form = await order(u, 5)
      const q = notifyQuery({ out_trade_no: form.out_trade_no, money: form.money })
      const replies = await Promise.all(Array.from({ length: 20 }, () => s.anon.get(`/api/user/epay/notify?${q}`)))
      assert.ok(replies.every((r) => r.body.message === 'success'))
      assert.equal(await quotaOf(u.id), 100 + 5 * 500000)
      const logs = await s.ctx.db.selectFrom('logs').select('id').where('user_id', '=', u.id).where('type', '=', 1).execute()
      assert.equal(logs.length, 1)
    })
  })
}
