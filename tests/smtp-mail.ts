import type { Readable } from 'node:stream'

/**
 * A mail as a loopback SMTP server of the tests receives it: the raw message read to its end, and
 * its text with quoted-printable soft breaks and escapes undone (what a test searches for a code or
 * a link).
 */
export async function readMail(stream: Readable): Promise<{ raw: string; text: string }> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
  return { raw, text }
}
