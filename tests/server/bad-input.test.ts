/**
 * Every write call of the core console API driven with generated bad input: malformed JSON, wrong
 * types, negative, fractional or huge numbers, over-long and empty strings, unknown enum values.
 * Each must answer a clear refusal (400, or HTTP 200 with success false) naming the field, never a
 * 500, and leave the database exactly as it was.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { dialects, startServer, Client, type TestServer } from './helpers.ts'
import { randomKey } from '../../server/lib/users.ts'

/** runs per call; a fixed seed keeps the suite deterministic (BAD_INPUT_RUNS and BAD_INPUT_SEED explore more) */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 30)
const SEED = Number(process.env.BAD_INPUT_SEED ?? 20261122)
const OMIT = Symbol('omit')

const ALNUM = [...'abcdefghijklmnopqrstuvwxyz0123456789']
const notString = fc.constantFrom<unknown>(null, true, 12, 1.5, [], ['a'], {}, { a: 'b' })
const notNumber = fc.constantFrom<unknown>(null, true, false, '12', 'abc', '', [], [1], {}, { n: 1 })
const notBool = fc.constantFrom<unknown>(null, 0, 1, 'true', 'false', '', [], {}, 2)
const fraction = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x))
const below = (min: number) => fc.integer({ min: Number.MIN_SAFE_INTEGER, max: min - 1 })
const above = (max: number) => fc.double({ min: Math.max(max * 2, max + 1), max: 1e300, noNaN: true, noDefaultInfinity: true })
/** an integer field valid from min to max */
const badInt = (min: number, max: number) => fc.oneof(below(min), above(max), fraction, notNumber)
const longText = (max: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: max + 1, maxLength: max + 40 })
/** a trimmed string field of at most max characters, required (non-empty) unless emptyOk */
const badText = (max: number, emptyOk = false) =>
  emptyOk ? fc.oneof(longText(max), notString) : fc.oneof(longText(max), notString, fc.constantFrom('', '   '))
const badId = badInt(1, Number.MAX_SAFE_INTEGER)
/** an optional field's bad values: null is not one of them (it means "not given", DESIGN §3) */
const notNull = <T>(bad: fc.Arbitrary<T>) => bad.filter((v) => v !== null)

/** bodies that are not a JSON object at all */
const malformed = fc.oneof(
  fc.constantFrom('{', '{"name":', '[1,2]', 'null', '"text"', '42', 'true', '{name: 1}', "{'a':1}", '{"a":1,}', ']'),
  fc.string({ minLength: 1, maxLength: 30 }).filter((t) => {
    try {
      const v = JSON.parse(t)
      return v === null || typeof v !== 'object' || Array.isArray(v)
    } catch {
      return true
    }
  }),
)

interface WriteCall {
  label: string
  method: 'POST' | 'PUT' | 'DELETE'
  as: 'root' | 'user'
  path: () => string
  base?: () => Record<string, unknown>
  /** per field: values that must be refused (OMIT: the field left out) */
  fields?: Record<string, fc.Arbitrary<unknown>>
  /** query-string calls: bad values of one parameter */
  query?: { name: string; bad: fc.Arbitrary<string> }
  /** words the refusal may name instead of the field (option values are named by their key) */
  names?: (field: string, value: unknown, body: Record<string, unknown>) => string[]
}

for (const dialect of dialects) {
  describe(`bad input on the core write calls (${dialect})`, () => {
    let s: TestServer
    let root: Client
    let user: Client & { id: number }
    let targetId: number
    let tokenId: number
    let codeId: number

    before(async () => {
      s = await startServer(dialect)
      root = await s.root()
      user = await s.user({ quota: 1000 })
      targetId = (await s.user({ username: 'target' })).id
      tokenId = (await user.post('/api/token/', { name: 'mine', remain_quota: 10 })).body.data.id
      codeId = (
        await s.ctx.db
          .insertInto('redemptions')
          .values({ key: randomKey(32), name: 'code', quota: 10 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    })
    after(() => s.close())

    async function snapshot(): Promise<string> {
      const db = s.ctx.db
      return JSON.stringify([
        await db.selectFrom('users').selectAll().orderBy('id').execute(),
        await db.selectFrom('tokens').selectAll().orderBy('id').execute(),
        await db.selectFrom('redemptions').selectAll().orderBy('id').execute(),
        await db.selectFrom('logs').selectAll().orderBy('id').execute(),
        await db.selectFrom('options').selectAll().orderBy('key').execute(),
      ])
    }

    const optionValue = (key: string, bad: unknown[]) => fc.constantFrom(...bad).map((value) => ({ key, value }))

    const calls: WriteCall[] = [
      {
        label: 'create user',
        method: 'POST',
        as: 'root',
        path: () => '/api/user/',
        base: () => ({ username: 'fresh', display_name: 'Fresh', password: 'password-1' }),
        fields: {
          username: fc.oneof(badText(12), fc.constant(OMIT)),
          display_name: notNull(badText(20, true)),
          password: fc.oneof(fc.string({ unit: fc.constantFrom(...ALNUM), maxLength: 7 }), longText(20), notString, fc.constant(OMIT)),
          role: fc.constantFrom<unknown>(0, 2, 100, 1000, -1, '1'),
        },
      },
      {
        label: 'update user',
        method: 'PUT',
        as: 'root',
        path: () => '/api/user/',
        base: () => ({ id: targetId, display_name: 'Changed', quota: 77, group: 'vip' }),
        fields: {
          id: fc.oneof(badId, fc.constant(OMIT)),
          username: notNull(badText(12)),
          display_name: notNull(badText(20, true)),
          password: notNull(fc.oneof(fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 1, maxLength: 7 }), longText(20), notString)),
          quota: notNull(badInt(0, 1e15)),
          group: notNull(fc.oneof(badText(64), fc.constantFrom('a,b', 'has space'))),
        },
      },
      {
        label: 'manage user',
        method: 'POST',
        as: 'root',
        path: () => '/api/user/manage',
        base: () => ({ id: targetId, action: 'disable' }),
        fields: {
          id: badId,
          action: fc.oneof(fc.constantFrom<unknown>('', 'explode', 'DELETE', 'promote ', OMIT), notString),
          username: fc.oneof(
            longText(64),
            notString.filter((v) => v !== null),
          ),
        },
      },
      {
        label: 'create token',
        method: 'POST',
        as: 'user',
        path: () => '/api/token/',
        base: () => ({
          name: 'new',
          remain_quota: 5,
          expired_time: -1,
          model_limits: 'a,b',
          model_limits_enabled: true,
          unlimited_quota: false,
        }),
        fields: {
          name: fc.oneof(badText(30), fc.constant(OMIT)),
          remain_quota: notNull(badInt(0, 1e15)),
          expired_time: notNull(fc.oneof(below(-1), fc.constant(0), above(253402300799), fraction, notNumber)),
          model_limits: notNull(fc.oneof(longText(1024), notString)),
          model_limits_enabled: notNull(notBool),
          unlimited_quota: notNull(notBool),
        },
      },
      {
        label: 'update token',
        method: 'PUT',
        as: 'user',
        path: () => '/api/token/',
        base: () => ({ id: tokenId, name: 'renamed', remain_quota: 9 }),
        fields: {
          id: fc.oneof(badId, fc.constant(OMIT)),
          name: notNull(badText(30)),
          remain_quota: notNull(badInt(0, 1e15)),
          expired_time: notNull(fc.oneof(below(-1), fc.constant(0), above(253402300799), fraction, notNumber)),
          model_limits: notNull(fc.oneof(longText(1024), notString)),
          model_limits_enabled: notNull(notBool),
          unlimited_quota: notNull(notBool),
        },
      },
      {
        label: 'token status',
        method: 'PUT',
        as: 'user',
        path: () => '/api/token/?status_only=true',
        base: () => ({ id: tokenId, status: 2 }),
        fields: { id: badId, status: fc.constantFrom<unknown>(0, 3, 4, -1, 1.5, '1', true, null, OMIT) },
      },
      {
        label: 'create codes',
        method: 'POST',
        as: 'root',
        path: () => '/api/redemption/',
        base: () => ({ name: 'batch', quota: 100, count: 3 }),
        fields: {
          name: fc.oneof(badText(20), fc.constant(OMIT)),
          quota: fc.oneof(badInt(1, 1e15), fc.constant(OMIT)),
          count: notNull(badInt(1, 100)),
        },
      },
      {
        label: 'update code',
        method: 'PUT',
        as: 'root',
        path: () => '/api/redemption/',
        base: () => ({ id: codeId, name: 'renamed', quota: 50 }),
        fields: { id: fc.oneof(badId, fc.constant(OMIT)), name: notNull(badText(20)), quota: notNull(badInt(1, 1e15)) },
      },
      {
        label: 'code status',
        method: 'PUT',
        as: 'root',
        path: () => '/api/redemption/?status_only=true',
        base: () => ({ id: codeId, status: 2 }),
        fields: { id: badId, status: fc.constantFrom<unknown>(0, 3, -1, 2.5, '2', false, null, OMIT) },
      },
      {
        label: 'redeem',
        method: 'POST',
        as: 'user',
        path: () => '/api/user/topup',
        base: () => ({ key: 'x'.repeat(32) }),
        fields: { key: fc.oneof(longText(128), notString) },
      },
      {
        label: 'save option',
        method: 'PUT',
        as: 'root',
        path: () => '/api/option/',
        base: () => ({ key: 'Notice', value: 'hi' }),
        fields: {
          key: fc.oneof(fc.constantFrom<unknown>('', 'NoSuchKey', 'notice', '__proto__', 'constructor', OMIT), longText(128), notString),
          value: fc.constantFrom<unknown>(null, [], ['a'], { a: 1 }, OMIT),
          // a key and its value together: a value the key's own rule refuses
          pair: fc.oneof(
            optionValue('RetryTimes', [-1, 1.5, 'abc', 101, '']),
            optionValue('QuotaPerUnit', [0, -5, 'x']),
            optionValue('MinTopUp', [0, 0.5, 'none']),
            optionValue('Price', [-0.01, 'cheap']),
            optionValue('RegisterEnabled', ['yes', 1, 0, 'TRUE ', '']),
            optionValue('ModelRatio', ['{', '[]', '{"a":"b"}', '{"a":-1}', 5, true, 'null']),
            optionValue('GroupRatio', ['{"vip": "1"}', '[1]']),
            optionValue('TopupGroupRatio', ['not json']),
            optionValue('DataExportDefaultTime', ['month', '', 3]),
            optionValue('DataExportInterval', [0, -1, 2.5]),
            optionValue('SMTPPort', [0, 65536, 'x']),
            optionValue('GitHubOAuthEnabled', ['true']),
          ),
        },
        // TopupGroupRatio's refusal is the spec's own wording, which names it in words
        names: (field, value) => (field === 'pair' ? [(value as { key: string }).key, 'top-up group ratio'] : [field]),
      },
      {
        label: 'clean logs',
        method: 'DELETE',
        as: 'root',
        path: () => '/api/log/',
        query: {
          name: 'target_timestamp',
          bad: fc.oneof(
            fc.constantFrom('', '0', '-1', 'abc', '1.5', '1e3', ' ', '99999999999999999', '0x10'),
            fc.integer({ min: -1e9, max: 0 }).map(String),
          ),
        },
      },
      {
        label: 'delete token by a bad id',
        method: 'DELETE',
        as: 'user',
        path: () => '/api/token/',
        query: { name: '', bad: fc.constantFrom('99999999999999999999', '0', '00') },
      },
    ]

    for (const call of calls) {
      it(`${call.label}: refused with the field named, nothing written`, async () => {
        const client = call.as === 'root' ? root : user
        const before = await snapshot()
        const cases: Array<fc.Arbitrary<{ field: string; value?: unknown; raw?: string }>> = []
        for (const [field, bad] of Object.entries(call.fields ?? {})) cases.push(bad.map((value) => ({ field, value })))
        if (call.base) cases.push(malformed.map((raw) => ({ field: 'body', raw })))
        if (call.query) cases.push(call.query.bad.map((value) => ({ field: call.query!.name || 'id', value })))

        await fc.assert(
          fc.asyncProperty(fc.oneof(...cases), async ({ field, value, raw }) => {
            let path = call.path()
            let payload: string | undefined
            let body: Record<string, unknown> = {}
            if (call.query) {
              path = call.query.name ? `${path}?${call.query.name}=${encodeURIComponent(String(value))}` : `${path}${value}`
            } else if (raw !== undefined) {
              payload = raw
            } else {
              body = call.base!()
              if (field === 'pair') Object.assign(body, value as object)
              else if (value === OMIT) delete body[field]
              else body[field] = value
              payload = JSON.stringify(body)
            }
            const r = await client.call(call.method, path, payload)
            const what = `${call.method} ${path} ${payload ?? ''} -> ${r.status} ${r.body.message}`
            assert.notEqual(r.status, 500, what)
            assert.ok(r.status === 400 || (r.status === 200 && r.body.success === false), what)
            const names = raw !== undefined ? ['JSON', 'body'] : (call.names?.(field, value, body) ?? [field])
            assert.ok(
              names.some((n) => r.body.message.includes(n)),
              `the refusal names ${names.join(' or ')}: ${what}`,
            )
            assert.equal(await snapshot(), before, `nothing may change: ${what}`)
          }),
          { numRuns: RUNS, seed: SEED },
        )
      })
    }

    it('refuses a body that is not JSON on every write call, before anything else', async () => {
      for (const [method, path] of [
        ['POST', '/api/user/'],
        ['PUT', '/api/user/'],
        ['POST', '/api/user/manage'],
        ['POST', '/api/token/'],
        ['PUT', '/api/token/'],
        ['PUT', '/api/token/?status_only=true'],
        ['POST', '/api/redemption/'],
        ['PUT', '/api/redemption/'],
        ['PUT', '/api/redemption/?status_only=true'],
        ['POST', '/api/user/topup'],
        ['PUT', '/api/option/'],
      ] as const) {
        const client = path.startsWith('/api/token') || path === '/api/user/topup' ? user : root
        const r = await client.call(method, path, '{"broken":')
        assert.equal(r.status, 400, `${method} ${path}`)
        assert.equal(r.body.data.field, 'body')
      }
    })
  })
}
