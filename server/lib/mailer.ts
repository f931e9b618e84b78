import nodemailer from 'nodemailer'
import type { OptionStore } from '../options.ts'
import { SMTP_PORT, SMTPS_PORT } from '../../domain/option-rules.ts'

/** A mail that could not be sent; the message says why, in words a console user can act on. */
export class MailError extends Error {}

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
  if (!s.host) throw new MailError('the administrator has not configured an SMTP server')
  if (!s.from) throw new MailError('the administrator has not set the SMTP sender address')
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
    throw new MailError(e instanceof Error ? e.message : String(e))
  } finally {
    transport.close()
  }
}
