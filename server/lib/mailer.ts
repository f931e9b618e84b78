import nodemailer from 'nodemailer'
import type { OptionStore } from '../options.ts'
import { SMTP_PORT, SMTPS_PORT } from '../../domain/option-rules.ts'
import { say, text as message, type Locale, type MessageKey, type Text } from '../i18n/index.ts'
import { networkReason } from './status-reason.ts'

/** A mail that could not be sent; `reason` says why, in words a console user can act on. */
export class MailError extends Error {
  reason: Text
  constructor(reason: Text) {
    const why = reason.params?.reason
    super(why === undefined ? reason.key : typeof why === 'object' ? say('en', why.key, why.params) : String(why))
    this.reason = reason
  }
}

export interface SmtpSettings {
  host: string
  port: number
  /** TLS from the first byte (SMTPS); otherwise STARTTLS when the server offers it */
  secure: boolean
  user: string
  pass: string
  from: string
}

/** The SMTP options as nodemailer needs them. Port 465 always means SMTPS. */
export function smtpSettings(o: OptionStore): SmtpSettings {
  const port = Math.trunc(o.num('SMTPPort', SMTP_PORT)) || SMTP_PORT
  return {
    host: o.get('SMTPServer').trim(),
    port,
    secure: o.bool('SMTPSSLEnabled') || port === SMTPS_PORT,
    user: o.get('SMTPAccount').trim(),
    pass: o.get('SMTPToken'),
    from: o.get('SMTPFrom').trim() || o.get('SMTPAccount').trim(),
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/**
 * Sends one mail through the SMTP server of the options. A fresh connection per mail: options may
 * change at any time and these mails are rare. Throws MailError with the reason on failure.
 */
export async function sendMail(o: OptionStore, to: string, subject: string, text: string, html: string): Promise<void> {
  const s = smtpSettings(o)
  if (!s.host) throw new MailError(message('mail.notSentNoServer'))
  if (!s.from) throw new MailError(message('mail.notSentNoSender'))
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.pass } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  try {
    await transport.sendMail({
      from: { name: o.get('SystemName') || 'Tollgate', address: s.from },
      to,
      subject,
      text,
      html,
    })
  } catch (e) {
    // a refused connection, an unknown host, a certificate: in the reader's words (the SMTP server's own stay as they came)
    throw new MailError(message('mail.notSent', { reason: networkReason(e) ?? (e instanceof Error ? e.message : String(e)) }))
  } finally {
    transport.close()
  }
}

/** One paragraph of a mail: catalogue words, or a link (clickable in the HTML). */
export type Paragraph = MessageKey | Text | { link: string }

/** A mail's subject and body in the reader's language, as plain text and as HTML. */
export function letter(locale: Locale, subject: Text, paragraphs: readonly Paragraph[]): { subject: string; text: string; html: string } {
  const words = (p: Paragraph) => (typeof p === 'string' ? say(locale, p) : 'link' in p ? p.link : say(locale, p.key, p.params))
  const html = (p: Paragraph) => {
    const line = escapeHtml(words(p))
    return typeof p !== 'string' && 'link' in p ? `<a href="${line}">${line}</a>` : line
  }
  return {
    subject: say(locale, subject.key, subject.params),
    text: `${paragraphs.map(words).join('\n')}\n`,
    html: paragraphs.map((p) => `<p>${html(p)}</p>`).join(''),
  }
}
