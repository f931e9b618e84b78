/** The e-mail calls (spec section 7): verification codes, password reset, binding an address. */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppContext } from '../context.ts'
import { ok, readBody, readQuery, refuse, type Env } from '../http.ts'
import { optional } from '../lib/wire.ts'
import { localeOf, text, type Text } from '../i18n/index.ts'
import { endUserSessions, optionalUser, requireRole } from '../middleware/session.ts'
import { criticalRateLimit } from '../middleware/rate-limit.ts'
import { turnstileCheck } from '../middleware/turnstile.ts'
import { letter, MailError, sendMail, type Paragraph } from '../lib/mailer.ts'
import { consumeVerificationCode, issueVerificationCode, issueVerificationToken } from '../lib/verification.ts'
import { must } from '../lib/problems.ts'
import { hashPassword, randomKey, type UserRow } from '../lib/users.ts'
import { claimForUser, emailTaken, findUserByEmail, updateUser } from '../db/users.ts'
import { ROLE } from '../../domain/roles.ts'
import type { OptionStore } from '../options.ts'

export const EMAIL_MAX = 50
/** providers that ignore dots in the local part, so `a.b@` and `ab@` are one mailbox */
const DOT_BLIND_DOMAINS = new Set(['gmail.com', 'googlemail.com'])

const email = z
  .string()
  .trim()
  .min(1)
  .max(EMAIL_MAX)
  .superRefine(must((a: string) => z.regexes.email.test(a), 'mail.notAddress'))

const verificationQuery = z.object({
  email,
  purpose: optional(z.enum(['register', 'bind']).optional()),
})
const resetBody = z.object({ email, token: z.string().trim().min(1).max(64) })
const bindQuery = z.object({ email, code: z.string().trim().min(1).max(16) })

type C = Context<Env>

/** Why this address may not be used under the domain and alias restrictions, or null. */
export function addressRefusal(o: OptionStore, address: string): Text | null {
  const at = address.lastIndexOf('@')
  const local = address.slice(0, at)
  const domain = address.slice(at + 1).toLowerCase()
  if (o.bool('EmailDomainRestrictionEnabled')) {
    const allowed = o
      .get('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean)
    if (!allowed.length) return text('mail.noDomainAllowed')
    if (!allowed.includes(domain)) return text('mail.domainNotAllowed', { domains: allowed.join(', ') })
  }
  if (o.bool('EmailAliasRestrictionEnabled')) {
    if (local.includes('+')) return text('mail.aliasPlus')
    if (DOT_BLIND_DOMAINS.has(domain) && local.includes('.')) return text('mail.aliasDots', { domain })
  }
  return null
}

/** Mails `paragraphs` in the caller's language; a mail that cannot go is refused with the reason. */
async function mailTo(c: C, to: string, subject: Text, paragraphs: readonly Paragraph[]): Promise<void> {
  const o = c.get('ctx').options
  const m = letter(localeOf(c), subject, paragraphs)
  try {
    await sendMail(o, to, m.subject, m.text, m.html)
  } catch (e) {
    if (e instanceof MailError) refuse(e.reason)
    throw e
  }
}

const systemName = (o: OptionStore) => o.get('SystemName') || 'Tollgate'
const CLOSING: Paragraph[] = ['mail.validTenMinutes', 'mail.ignoreIfNotYou']

const bindPurpose = (me: UserRow) => `bind:${me.id}`

/** Mails a code for registering (signed out) or for binding the address (signed in). */
async function sendVerification(c: C) {
  const { db, options: o } = c.get('ctx')
  const q = readQuery(c, verificationQuery)
  const me = c.get('user') as UserRow | undefined
  const purpose = q.purpose ?? (me ? 'bind' : 'register')
  if (purpose === 'bind' && !me) refuse('mail.signInToBind')
  if (purpose === 'register' && !o.bool('RegisterEnabled')) refuse('account.registerClosed')
  const refusal = addressRefusal(o, q.email)
  if (refusal) refuse(refusal)
  if (await emailTaken(db, q.email)) refuse('mail.emailUsed')
  // a bind code belongs to the signed-in user who asked for it: nobody else can spend it (issue 10 item 1)
  const code = await issueVerificationCode(db, purpose === 'bind' ? bindPurpose(me!) : purpose, q.email)
  await mailTo(c, q.email, text('mail.verifySubject', { system: systemName(o) }), [text('mail.verifyCode', { code }), ...CLOSING])
  return ok(c, null, 'mail.codeSent')
}

/** Mails a one-time link to the reset confirmation page. */
async function sendReset(c: C) {
  const { db, options: o } = c.get('ctx')
  const q = readQuery(c, z.object({ email }))
  if (!(await findUserByEmail(db, q.email))) refuse('mail.noAccount')
  const token = await issueVerificationToken(db, 'reset', q.email)
  const base = (o.get('ServerAddress').trim() || new URL(c.req.url).origin).replace(/\/+$/, '')
  const link = `${base}/user/reset?email=${encodeURIComponent(q.email)}&token=${token}`
  await mailTo(c, q.email, text('mail.resetSubject', { system: systemName(o) }), ['mail.resetOpenLink', { link }, ...CLOSING])
  return ok(c, null, 'mail.resetSent')
}

/** Spends the reset token and answers a new random password once. */
async function resetPassword(c: C) {
  const { db, bus } = c.get('ctx')
  const body = await readBody(c, resetBody)
  if (!(await consumeVerificationCode(db, 'reset', body.email, body.token))) refuse('mail.resetLinkWrong')
  const owner = await findUserByEmail(db, body.email)
  if (!owner) refuse('mail.noAccount')
  const password = randomKey(12)
  await updateUser(db, owner.id, { password: await hashPassword(password) })
  await endUserSessions(c.get('ctx'), owner.id)
  bus.emit('users', owner.id)
  return ok(c, password, 'mail.passwordReset')
}

/** Binds the address to the signed-in user, with the code mailed by /verification. */
async function bindEmail(c: C) {
  const { db, bus } = c.get('ctx')
  const q = readQuery(c, bindQuery)
  const me = c.get('user')
  if (await emailTaken(db, q.email, me.id)) refuse('mail.emailUsedByOther')
  if (!(await consumeVerificationCode(db, bindPurpose(me), q.email, q.code))) refuse('account.codeWrong')
  if (!(await claimForUser(db, me.id, 'email', q.email))) refuse('mail.emailUsedByOther')
  bus.emit('users', me.id)
  return ok(c, null, 'account.bound')
}

export function mailRoutes(ctx: AppContext) {
  const app = new Hono<Env>()
  const critical = criticalRateLimit(ctx)
  const turnstile = turnstileCheck(ctx)
  app.get('/verification', critical, turnstile, optionalUser(ctx), sendVerification)
  app.get('/reset_password', critical, turnstile, sendReset)
  app.post('/user/reset', critical, resetPassword)
  app.get('/oauth/email/bind', critical, requireRole(ctx, ROLE.user), bindEmail)
  return app
}
