import type { Context, Hono } from 'hono'
import type { Env } from '../../http.ts'
import type { RelayEngine } from '../engine.ts'
import type { RelayCall } from '../adapters/index.ts'
import { authenticate } from '../authenticate.ts'
import { chooseRoute } from '../choose.ts'
import { countPrompt } from '../count.ts'
import { RelayError, anthropicErrorResponse, errorResponse } from '../errors.ts'
import { geminiErrorResponse } from './gemini.ts'
import { anthropicModel, anthropicModelList, geminiModel, geminiModelList, modelNotFound, usableModels, type Family } from './models.ts'

const MAX_BODY = 32 * 1024 * 1024
const JSON_HEADERS = { 'content-type': 'application/json', 'access-control-allow-origin': '*' }

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS })
}

/** A failure in the family's own error shape. */
function refuse(family: Family, c: Context<Env>, err: unknown): Response {
  const e = err instanceof RelayError ? err : new RelayError(500, 'the relay failed to process this request', 'relay_error')
  if (!(err instanceof RelayError)) console.error(`[${c.get('requestId')}] relay failure:`, err)
  const shape = family === 'anthropic' ? anthropicErrorResponse : family === 'gemini' ? geminiErrorResponse : errorResponse
  return shape(e, c.get('requestId'))
}

async function jsonBody(c: Context<Env>): Promise<Record<string, any>> {
  const raw = Buffer.from(await c.req.raw.arrayBuffer())
  if (raw.length > MAX_BODY) throw new RelayError(413, 'request body is too large', 'body_too_large')
  try {
    const j = JSON.parse(raw.toString('utf8')) as unknown
    if (j && typeof j === 'object' && !Array.isArray(j)) return j as Record<string, any>
  } catch {
    /* refused below */
  }
  throw new RelayError(400, 'the request body must be a JSON object', 'invalid_request', 'invalid_request_error')
}

/**
 * Anthropic's POST /v1/messages/count_tokens and Gemini's :countTokens: the prompt's tokens as the
 * relay counts them for billing, for a model the caller may use. Nothing reaches a channel and
 * nothing is charged.
 */
async function countTokens(engine: RelayEngine, c: Context<Env>, family: 'anthropic' | 'gemini', model: string): Promise<Response> {
  try {
    const caller = await authenticate(engine, c)
    const body = await jsonBody(c)
    // Gemini takes the contents alone or a whole generateContentRequest
    const j = family === 'gemini' && body.generateContentRequest ? (body.generateContentRequest as Record<string, any>) : body
    const name = family === 'anthropic' ? String(j.model ?? '').trim() : model
    if (!name) throw new RelayError(400, 'model is required', 'model_required', 'invalid_request_error')
    const mode = family === 'anthropic' ? 'messages' : 'gemini'
    const call: RelayCall = {
      mode,
      path: '',
      raw: Buffer.alloc(0),
      json: j,
      contentType: 'application/json',
      model: name,
      stream: false,
      wantUsage: false,
    }
    chooseRoute(engine, caller, call)
    const tokens = await countPrompt(engine.tokenizer, call)
    if (family === 'anthropic') return json({ input_tokens: tokens })
    return json({ totalTokens: tokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }] })
  } catch (err) {
    return refuse(family, c, err)
  }
}

/** GET models in Anthropic's or Gemini's shape (Gemini's /v1beta/models, or /v1/models by the client's headers). */
export async function listModels(engine: RelayEngine, c: Context<Env>, family: Exclude<Family, 'openai'>): Promise<Response> {
  try {
    const ids = usableModels(engine, await authenticate(engine, c))
    const query = (k: string) => c.req.query(k)
    return json(family === 'anthropic' ? anthropicModelList(ids, query) : geminiModelList(ids, query))
  } catch (err) {
    return refuse(family, c, err)
  }
}

/** GET one model in the family's shape, 404 when the caller may not use it. */
export async function getModel(engine: RelayEngine, c: Context<Env>, family: Exclude<Family, 'openai'>, id: string): Promise<Response> {
  try {
    const caller = await authenticate(engine, c)
    if (!usableModels(engine, caller).includes(id)) throw modelNotFound(id)
    return json(family === 'anthropic' ? anthropicModel(id) : geminiModel(id))
  } catch (err) {
    return refuse(family, c, err)
  }
}

/** The model named in /models/{model}:{action}, and the action. */
function modelAction(path: string): { model: string; action: string } {
  const m = /\/models\/(.+?):([A-Za-z]+)$/.exec(path)
  return m ? { model: decodeURIComponent(m[1]), action: m[2] } : { model: '', action: '' }
}

/**
 * The front doors' routes beside the relay's own: Gemini's API under /v1beta (and /v1, as its
 * clients may name it), its model listing and token counting, and Anthropic's token counting.
 */
export function doorRoutes(app: Hono<Env>, engine: RelayEngine): void {
  app.post('/v1/messages/count_tokens', (c) => countTokens(engine, c, 'anthropic', ''))
  const gemini = (c: Context<Env>) => {
    const { model, action } = modelAction(c.req.path)
    if (action === 'countTokens') return countTokens(engine, c, 'gemini', model)
    return engine.handle(c, 'gemini', '/models')
  }
  app.post('/v1beta/models/*', gemini)
  app.post('/v1/models/*', gemini)
  app.get('/v1beta/models', (c) => listModels(engine, c, 'gemini'))
  app.get('/v1beta/models/*', (c) => getModel(engine, c, 'gemini', decodeURIComponent(c.req.path.replace(/^\/v1beta\/models\//, ''))))
}
