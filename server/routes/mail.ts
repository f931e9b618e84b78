import { Hono } from 'hono'
import { sql } from 'kysely'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { fail, ok, readBody, readQuery, type Env } from '../http.ts'
import { optionalUser, requireRole } from '../middleware/session.ts'
import { rateLimit } from '../middleware/rate-limit.ts'
import { turnstileCheck } from '../middleware/turnstile.ts'
import { escapeHtml, MailError, sendMail } from '../lib/mailer.ts'
import { consumeVerificationCode, issueVerificationCode, issueVerificationToken } from '../lib/verification.ts'
import { randomKey, type UserRow } from '../lib/users.ts'
import { ROLE } from '../../domain/roles.ts'
import type { OptionStore } from '../options.ts'
import { hashPassword } from './account.ts'

export const EMAIL_MAX = 50
/** providers that ignore dots in the local part, so `a.b@` and `ab@` are one mailbox */
const DOT_BLIND_DOMAINS = new Set(['gmail.com', 'googlemail.com'])

const email = z
  .string()
  .trim()
  .min(1)
  .max(EMAIL_MAX)
  .pipe(z.email({ message: 'is not a valid e-mail address' }))

const verificationQuery = z.object({
  email,
  purpose: z.enum(['register', 'bind']).optional(),
})
const resetBody = z.object({ email, token: z.string().trim().min(1).max(64) })
const bindQuery = z.object({ email, code: z.string().trim().min(1).max(16) })

function splitAddress(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@')
  return { local: address.slice(0, at), domain: address.slice(at + 1).toLowerCase() }
}

/** Why this address may not be used under the domain and alias restrictions, or null. */
export function addressRefusal(o: OptionStore, address: string): string | null {
  const { local, domain } = splitAddress(address)
  if (o.bool('EmailDomainRestrictionEnabled')) {
    const allowed = o
      .get('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean)
    if (!allowed.includes(domain)) {
      return `the administrator only allows e-mail addresses of these domains: ${allowed.join(', ') || '(none)'}`
    }
  }
  if (o.bool('EmailAliasRestrictionEnabled')) {
    if (local.includes('+')) return 'e-mail aliases (addresses with "+") are not allowed'
    if (DOT_BLIND_DOMAINS.has(domain) && local.includes('.')) {
      return `dots in a ${domain} address make an alias of the same mailbox and are not allowed`
    }
  }
  return null
}

function sameAddress(address: string) {
  return sql<boolean>`lower(email) = ${address.toLowerCase()}`
}

function serverBase(o: OptionStore, requestUrl: string): string {
  return (o.get('ServerAddress').trim() || new URL(requestUrl).origin).replace(/\/+$/, '')
}

export function mailRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const o = ctx.options
  const critical = rateLimit(
    ctx.limiter,
    'critical',
    () => ctx.config.criticalRateLimit,
    () => ctx.config.criticalRateWindowSeconds,
  )
  const turnstile = turnstileCheck(ctx)
  const signedIn = requireRole(ctx, ROLE.user)

  /** Mails a code for registering (signed out) or for binding the address (signed in). */
  app.get('/verification', critical, turnstile, optionalUser(ctx), async (c) => {
    const q = readQuery(c, verificationQuery)
    const me = c.get('user') as UserRow | undefined
    const purpose = q.purpose ?? (me ? 'bind' : 'register')
    if (purpose === 'bind' && !me) return fail(c, 'sign in first to bind an e-mail address')
    if (purpose === 'register' && !o.bool('RegisterEnabled')) return fail(c, 'new registrations are closed by the administrator')
    const refusal = addressRefusal(o, q.email)
    if (refusal) return fail(c, refusal)
    const taken = await ctx.db.selectFrom('users').select('id').where(sameAddress(q.email)).executeTakeFirst()
    if (taken) return fail(c, 'this e-mail address is already used by an account')

    const code = issueVerificationCode(purpose, q.email)
    const system = o.get('SystemName') || 'Tollgate'
    try {
      await sendMail(
        o,
        q.email,
        `${system} e-mail verification`,
        `Your verification code is: ${code}\nIt is valid for 10 minutes.\nIf you did not ask for it, ignore this e-mail.\n`,
        `<p>Your verification code is: <strong>${code}</strong></p><p>It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.</p>`,
      )
    } catch (e) {
      if (e instanceof MailError) return fail(c, `the e-mail could not be sent: ${e.message}`)
      throw e
    }
    return ok(c, null, 'verification code sent')
  })

  /** Mails a one-time link to the reset confirmation page. */
  app.get('/reset_password', critical, turnstile, async (c) => {
    const q = readQuery(c, z.object({ email }))
    const owner = await ctx.db
      .selectFrom('users')
      .select('id')
      .where(sameAddress(q.email))
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (!owner) return fail(c, 'no account uses this e-mail address')

    const token = issueVerificationToken('reset', q.email)
    const link = `${serverBase(o, c.req.url)}/user/reset?email=${encodeURIComponent(q.email)}&token=${token}`
    const system = o.get('SystemName') || 'Tollgate'
    try {
      await sendMail(
        o,
        q.email,
        `${system} password reset`,
        `Open this link to reset your password:\n${link}\nIt is valid for 10 minutes.\nIf you did not ask for it, ignore this e-mail.\n`,
        `<p>Open this link to reset your password:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.</p>`,
      )
    } catch (e) {
      if (e instanceof MailError) return fail(c, `the e-mail could not be sent: ${e.message}`)
      throw e
    }
    return ok(c, null, 'reset e-mail sent')
  })

  /** Spends the reset token and answers a new random password once. */
  app.post('/user/reset', critical, async (c) => {
    const body = await readBody(c, resetBody)
    if (!consumeVerificationCode('reset', body.email, body.token)) return fail(c, 'the reset link is wrong or has expired')
    const owner = await ctx.db
      .selectFrom('users')
      .select('id')
      .where(sameAddress(body.email))
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst()
    if (!owner) return fail(c, 'no account uses this e-mail address')
    const password = randomKey(12)
    await ctx.db
      .updateTable('users')
      .set({ password: await hashPassword(password) })
      .where('id', '=', owner.id)
      .execute()
    ctx.bus.emit('users', owner.id)
    return ok(c, password, 'password reset')
  })

  /** Binds the address to the signed-in user, with the code mailed by /verification. */
  app.get('/oauth/email/bind', critical, signedIn, async (c) => {
    const q = readQuery(c, bindQuery)
    const me = c.get('user')
    const other = await ctx.db.selectFrom('users').select('id').where(sameAddress(q.email)).where('id', '!=', me.id).executeTakeFirst()
    if (other) return fail(c, 'this e-mail address is already used by another account')
    if (!consumeVerificationCode('bind', q.email, q.code)) return fail(c, 'the verification code is wrong or has expired')
    const r = await ctx.db
      .updateTable('users')
      .set({ email: q.email })
      .where('id', '=', me.id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('users as other')
              .select('other.id')
              .where(sql<boolean>`lower(other.email) = ${q.email.toLowerCase()}`)
              .where('other.id', '!=', me.id),
          ),
        ),
      )
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) return fail(c, 'this e-mail address is already used by another account')
    ctx.bus.emit('users', me.id)
    return ok(c, null, 'bound')
  })

  return app
}
