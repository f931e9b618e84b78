/**
 * The domain rules' problems (domain/problem.ts) as messages of the server's catalogue
 * (server/i18n/messages/problems.ts): each problem id is the key `problem.<id>`.
 */
import { z } from 'zod'
import type { Problem } from '../../domain/problem.ts'
import { text, type MessageKey, type Params, type Text } from '../i18n/index.ts'

/** A problem as a message; a field rule names its field. */
export function problemText(p: Problem, field?: string): Text {
  const params = field === undefined ? p.params : { ...p.params, field }
  return text(`problem.${p.id}`, params)
}

/**
 * A domain rule as a zod refinement: the value the wire shape let through is refused as an issue
 * of its field (check() answers it naming the field, in the caller's language).
 */
export function rule<T>(check: (value: T) => Problem | null) {
  return (value: T, ctx: z.RefinementCtx) => {
    const p = check(value)
    if (p) ctx.addIssue({ code: 'custom', message: p.id, params: { text: problemText(p) } })
  }
}

/**
 * A check of the wire shape worded by the catalogue, as a zod refinement: unless `ok` holds, the
 * value is refused as an issue of its field with the message of `key` (which may use {field}).
 */
export function must<T>(ok: (value: T) => boolean, key: MessageKey, params?: Params) {
  return (value: T, ctx: z.RefinementCtx) => {
    if (!ok(value)) ctx.addIssue({ code: 'custom', message: key, params: { text: text(key, params) } })
  }
}
