import type { Context } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { Caller } from '../authenticate.ts'
import { MODEL_CREATED } from '../../../domain/channel-models.ts'
import { RelayError } from '../errors.ts'

/** Which family's shape a model listing answers in: the client's own conventions tell. */
export type Family = 'openai' | 'anthropic' | 'gemini'

export function familyOf(c: Context<Env>): Family {
  if (c.req.header('anthropic-version')) return 'anthropic'
  if (!c.req.header('authorization') && !c.req.header('x-api-key') && (c.req.header('x-goog-api-key') || c.req.query('key')))
    return 'gemini'
  return 'openai'
}

/** The models the caller may use and some channel of its group serves, sorted. */
export function usableModels(engine: RelayEngine, caller: Caller): string[] {
  return engine.modelsFor(caller).filter((m) => caller.pinned || engine.state.hasRoute(caller.group, m))
}

const CREATED_AT = new Date(MODEL_CREATED * 1000).toISOString().replace('.000Z', 'Z')

/** One model as Anthropic's ModelInfo (the fields its clients read). */
export function anthropicModel(id: string): Record<string, unknown> {
  return { type: 'model', id, display_name: id, created_at: CREATED_AT }
}

/**
 * GET /v1/models in Anthropic's list shape: {data, has_more, first_id, last_id}, paged by limit
 * (1 to 1000, 20 by default) and after_id or before_id.
 */
export function anthropicModelList(ids: string[], query: (k: string) => string | undefined): Record<string, unknown> {
  const limit = Math.min(1000, Math.max(1, Number(query('limit')) || 20))
  const after = query('after_id')
  const before = query('before_id')
  let page: string[]
  let more: boolean
  if (before) {
    const end = Math.max(0, ids.indexOf(before))
    page = ids.slice(Math.max(0, end - limit), end)
    more = end - limit > 0
  } else {
    const start = after ? ids.indexOf(after) + 1 : 0
    page = start > 0 || !after ? ids.slice(start, start + limit) : []
    more = start + limit < ids.length && page.length > 0
  }
  return { data: page.map(anthropicModel), has_more: more, first_id: page[0] ?? null, last_id: page.at(-1) ?? null }
}

const GEMINI_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens']

/** One model as Gemini's Model resource (name is models/{id}). */
export function geminiModel(id: string): Record<string, unknown> {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '',
    displayName: id,
    description: '',
    supportedGenerationMethods: GEMINI_METHODS,
  }
}

/** GET /v1beta/models in Gemini's shape: {models, nextPageToken}, paged by pageSize (50 by default) and pageToken. */
export function geminiModelList(ids: string[], query: (k: string) => string | undefined): Record<string, unknown> {
  const size = Math.min(1000, Math.max(1, Number(query('pageSize')) || 50))
  const start = Math.max(0, Number(query('pageToken')) || 0)
  const page = ids.slice(start, start + size)
  return { models: page.map(geminiModel), ...(start + size < ids.length ? { nextPageToken: String(start + size) } : {}) }
}

/** The refusal for a model the caller may not use or no channel serves, as OpenAI words it. */
export function modelNotFound(id: string): RelayError {
  return new RelayError(404, `the model ${id} does not exist or this API key may not use it`, 'model_not_found', 'invalid_request_error')
}
