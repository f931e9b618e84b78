/**
 * MjTranslate: a Midjourney prompt written in Chinese is translated into English before it is
 * forwarded, by a chat model (MjTranslateModel) asked through the gateway's own channels for the
 * caller's group, as mj-proxy's own "gpt" translation does with its OpenAI key. Only the words
 * are translated: leading image URLs and trailing `--` parameters are kept as they were. The
 * translation is part of the imagine's price (no charge, no log row of its own); when no channel
 * serves the model or the call fails, the prompt is forwarded untranslated.
 */
import type { RelayEngine } from '../engine.ts'
import type { RelayCall } from '../adapters/index.ts'
import { readLimited, send } from '../forward.ts'

const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/
const TIMEOUT_MS = 30_000
export const TRANSLATE_INSTRUCTION =
  'Translate the text the user sends into English for an image-generation prompt. Keep its meaning and keep any words already in English. Answer with the translation only, without quotes or explanations.'

/** The prompt in three parts: leading image URLs, the words, trailing `--` parameters. */
export function splitPrompt(prompt: string): { urls: string; words: string; params: string } {
  const lead = /^(\s*<?https?:\/\/\S+>?\s+)*/.exec(prompt)?.[0] ?? ''
  const rest = prompt.slice(lead.length)
  const at = rest.search(/(^|\s)--[a-z]/i)
  const words = at < 0 ? rest : rest.slice(0, at)
  const params = at < 0 ? '' : rest.slice(at)
  return { urls: lead.trim(), words: words.trim(), params: params.trim() }
}

/** The prompt with its Chinese words in English; the prompt itself when it has none or nothing could translate it. */
export async function translatePrompt(engine: RelayEngine, group: string, prompt: string): Promise<string> {
  const { urls, words, params } = splitPrompt(prompt)
  if (!CHINESE.test(words)) return prompt
  const model = engine.ctx.options.get('MjTranslateModel').trim() || 'gpt-4o-mini'
  const ch = engine.state.pick(group, model, 0, [], engine.random)
  if (!ch) {
    console.warn(`tasks: MjTranslate: no channel serves ${model} in the group ${group}; the prompt is forwarded as written`)
    return prompt
  }
  const json = {
    model,
    messages: [
      { role: 'system', content: TRANSLATE_INSTRUCTION },
      { role: 'user', content: words },
    ],
  }
  const call: RelayCall = {
    mode: 'chat',
    path: '/chat/completions',
    raw: Buffer.from(JSON.stringify(json)),
    json,
    contentType: 'application/json',
    model,
    stream: false,
    wantUsage: false,
  }
  try {
    const sent = await send(engine.upstream, call, ch, AbortSignal.timeout(TIMEOUT_MS))
    if (!sent.ok) throw new Error(sent.failure === 'refused' ? sent.error.message : sent.failure)
    const text = Buffer.from(await readLimited(sent.res.body, 1024 * 1024))
    const answer = sent.adapter.response(call, text, String(sent.res.headers['content-type'] ?? 'application/json'))
    const body = JSON.parse(answer.body.toString()) as { choices?: Array<{ message?: { content?: unknown } }> }
    const english = body.choices?.[0]?.message?.content
    if (typeof english !== 'string' || !english.trim()) throw new Error('the answer has no text')
    return [urls, english.trim().replace(/^["'“”]+|["'“”]+$/g, ''), params].filter(Boolean).join(' ')
  } catch (err) {
    console.warn(`tasks: MjTranslate through channel ${ch.id} failed: ${(err as Error).message}; the prompt is forwarded as written`)
    return prompt
  }
}
