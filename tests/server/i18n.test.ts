import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { catalog, parseAcceptLanguage } from '../../server/i18n/index.ts'
import { dialects, startServer, type TestServer } from './helpers.ts'
import { networkReason, sayReason } from '../../server/lib/status-reason.ts'

describe('the server catalogue', () => {
  it('reads the caller language from Accept-Language, English by default', () => {
    assert.equal(parseAcceptLanguage(undefined), 'en')
    assert.equal(parseAcceptLanguage('zh-CN'), 'zh-CN')
    assert.equal(parseAcceptLanguage('zh'), 'zh-CN')
    assert.equal(parseAcceptLanguage('fr-FR, zh-TW;q=0.8, en;q=0.5'), 'zh-CN')
    assert.equal(parseAcceptLanguage('en-GB, zh;q=0.2'), 'en')
    assert.equal(parseAcceptLanguage('de'), 'en')
  })

  it('words every message in both languages, with the same parameters', () => {
    for (const [key, words] of Object.entries(catalog())) {
      assert.ok(words.en.trim(), `${key}: English text`)
      assert.ok(words.zh.trim(), `${key}: Chinese text`)
      const names = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
      if (key !== 'field.invalid') assert.deepEqual(names(words.zh), names(words.en), `${key}: parameters`)
    }
  })
})

describe("the HTTP client's errors in the reader's words", () => {
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code })
  const both = (err: unknown) => {
    const r = networkReason(err)
    return r && [sayReason('en', r), sayReason('zh-CN', r)]
  }

  it('names what went wrong by the error code, and keeps the text in brackets', () => {
    assert.deepEqual(both(coded('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED')), [
      'connection refused (connect ECONNREFUSED 10.0.0.1:443)',
      '连接被拒绝（connect ECONNREFUSED 10.0.0.1:443）',
    ])
    assert.equal(both(coded('read ECONNRESET', 'ECONNRESET'))?.[1], '连接被对方关闭（read ECONNRESET）')
    assert.equal(both(coded('other side closed', 'UND_ERR_SOCKET'))?.[1], '连接被对方关闭（other side closed）')
    assert.equal(both(coded('getaddrinfo ENOTFOUND api.example', 'ENOTFOUND'))?.[1], '无法解析主机名（getaddrinfo ENOTFOUND api.example）')
    assert.equal(both(coded('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT'))?.[1], '连接超时（Connect Timeout Error）')
    assert.equal(both(coded('certificate has expired', 'CERT_HAS_EXPIRED'))?.[1], 'TLS 连接失败，请检查证书（certificate has expired）')
    assert.equal(
      both(coded('connect EHOSTUNREACH 10.0.0.1', 'EHOSTUNREACH'))?.[0],
      'the network or the host is unreachable (connect EHOSTUNREACH 10.0.0.1)',
    )
  })

  it("reads fetch's cause, a code named only in the message, a timeout and a body that is not JSON", () => {
    assert.equal(both(coded('connect ECONNREFUSED 127.0.0.1:25', 'ESOCKET'))?.[1], '连接被拒绝（connect ECONNREFUSED 127.0.0.1:25）')
    const fetchFailed = new TypeError('fetch failed', { cause: coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') })
    assert.equal(both(fetchFailed)?.[1], '连接被拒绝（connect ECONNREFUSED 127.0.0.1:1）')
    assert.equal(
      both(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))?.[1],
      '连接超时（The operation was aborted due to timeout）',
    )
    let parse: unknown
    try {
      JSON.parse('<html>')
    } catch (err) {
      parse = err
    }
    assert.match(both(parse)?.[1] ?? '', /^回答不是有效的 JSON（.*）$/)
  })

  it('leaves every other error to be shown as it came', () => {
    assert.equal(networkReason(new Error('the model is overloaded')), null)
    assert.equal(networkReason('a string'), null)
    assert.equal(networkReason(new SyntaxError('Invalid regular expression')), null)
  })
})

for (const dialect of dialects) {
  describe(`messages in the caller's language (${dialect})`, () => {
    let s: TestServer
    before(async () => {
      s = await startServer(dialect)
    })
    after(() => s.close())

    it('answers 401, a refusal and an unknown call in Chinese when asked, in English otherwise', async () => {
      const zh = { 'accept-language': 'zh-CN' }
      assert.equal((await s.anon.call('GET', '/api/user/self', undefined, zh)).body.message, '未登录或登录已过期，请重新登录')
      assert.equal((await s.anon.get('/api/user/self')).body.message, 'not logged in or login expired, please log in again')
      const short = await s.anon.call('POST', '/api/user/register', { username: 'zhuser', password: 'short' }, zh)
      assert.equal(short.status, 200)
      assert.equal(short.body.success, false)
      assert.equal(short.body.data.field, 'password')
      assert.equal(short.body.message, 'password 至少需要 8 个字符')
      assert.equal((await s.anon.call('GET', '/api/nothing/here', undefined, zh)).body.message, '没有这个接口：GET /api/nothing/here')
    })

    it("names a field's wrong JSON type in the caller's words", async () => {
      const u = await s.user()
      const zh = { 'accept-language': 'zh-CN' }
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ name: 'a', remain_quota: 'many' }, 'remain_quota 必须是数字', 'remain_quota must be number'],
        [{ name: 'a', unlimited_quota: 'yes' }, 'unlimited_quota 必须是布尔值（true 或 false）', 'unlimited_quota must be boolean'],
        [{ name: 7 }, 'name 必须是字符串', 'name must be string'],
      ]
      for (const [body, inZh, inEn] of cases) {
        assert.equal((await u.call('POST', '/api/token/', body, zh)).body.message, inZh)
        assert.equal((await u.post('/api/token/', body)).body.message, inEn)
      }
    })
  })
}
