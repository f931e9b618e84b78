import { call, get, post } from './client.ts'
import type { OptionEntry } from './types.ts'

/**
 * GET /api/option/ (root): every option as a key → value map. Secret values come back as ''.
 * Quiet for the read-back after a save, whose outcome the form has already told.
 */
export async function list(quiet = false): Promise<Record<string, string>> {
  const entries = (await get<OptionEntry[]>('/api/option/', undefined, { quiet })).data ?? []
  const options: Record<string, string> = {}
  for (const { key, value } of entries) options[key] = value ?? ''
  return options
}

/**
 * PUT /api/option/ {key, value}: saves one option. Quiet: a form saves several keys one by one
 * and tells the outcome once ('saved' or 'some saves failed, retry'); a 401 still ends the session.
 */
export async function update(key: string, value: string): Promise<void> {
  await call<null>('PUT', '/api/option/', { body: { key, value }, quiet: true })
}

/** POST /api/option/rest_model_ratio: puts ModelRatio and CompletionRatio back to the defaults. */
export async function resetModelRatios(): Promise<string> {
  return (await post<null>('/api/option/rest_model_ratio')).message
}
