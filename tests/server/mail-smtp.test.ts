/**
 * The SMTP settings: the reason given when a mail cannot be sent (wrong password, TLS against a
 * plain server, nothing listening, no server set), SSL forced on port 465 and the sender falling
 * back to the account; on SQLite and PostgreSQL.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { describeMail, deadPort } from './mail-fixture.ts'
import { smtpSettings } from '../../server/lib/mailer.ts'

describeMail((fx) => {
  it('answers success false with the reason when the mail cannot be sent', async () => {
    const { s, addr } = fx
    const o = s.ctx.options
    await o.set('SMTPToken', 'wrong-pass')
    try {
      const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
      assert.equal(r.status, 200)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /could not be sent: .*(Invalid|auth)/i)
    } finally {
      await o.set('SMTPToken', 'smtp-pass')
    }
    // SMTPSSLEnabled means TLS from the first byte: a plain-text server cannot be talked to
    await o.set('SMTPSSLEnabled', 'true')
    try {
      const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /could not be sent/)
    } finally {
      await o.set('SMTPSSLEnabled', 'false')
    }
    const port = o.get('SMTPPort')
    await o.set('SMTPPort', String(await deadPort()))
    try {
      const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /could not be sent: connection refused \(.*ECONNREFUSED.*\)$/)
      const zh = await s.anon.call('GET', `/api/verification?email=${encodeURIComponent(addr('nosend-zh'))}`, undefined, {
        'accept-language': 'zh-CN',
      })
      assert.match(zh.body.message, /^邮件发送失败：连接被拒绝（.*ECONNREFUSED.*）$/)
    } finally {
      await o.set('SMTPPort', port)
    }
    const server = o.get('SMTPServer')
    await o.set('SMTPServer', '')
    try {
      const r = await s.anon.get(`/api/verification?email=${encodeURIComponent(addr('nosend'))}`)
      assert.equal(r.body.success, false)
      assert.match(r.body.message, /not configured an SMTP server/)
    } finally {
      await o.set('SMTPServer', server)
    }
  })

  it('forces SSL for port 465 and falls back to the account as sender', async () => {
    const { s } = fx
    const o = s.ctx.options
    const port = o.get('SMTPPort')
    const from = o.get('SMTPFrom')
    try {
      await o.set('SMTPPort', '465')
      assert.equal(smtpSettings(o).secure, true)
      await o.set('SMTPPort', '587')
      assert.equal(smtpSettings(o).secure, false)
      await o.set('SMTPFrom', '')
      assert.equal(smtpSettings(o).from, 'mailer@example.com')
    } finally {
      await o.set('SMTPPort', port)
      await o.set('SMTPFrom', from)
    }
  })
})
