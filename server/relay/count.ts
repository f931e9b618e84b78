import type { Usage } from './pricing.ts'
import type { Tokenizer } from './tokenizer.ts'
import type { RelayCall } from './adapters/index.ts'
import { chatJsonOf } from './doors/index.ts'
import { contentText, usageOf } from './adapters/types.ts'

const IMAGE_TOKENS_LOW = 85
const IMAGE_TOKENS = 765

/** Texts to tokenize, and tokens counted without the tokenizer (per-message overhead, images). */
interface Countable {
  texts: string[]
  extra: number
}

/** Tokens of the request's input, counted as OpenAI does (3 per message, 3 to prime the reply). */
export async function countPrompt(tokenizer: Tokenizer, call: RelayCall): Promise<number> {
  const j = call.json ?? {}
  // the Responses and Gemini doors are counted in their chat completions shape
  const chat = call.mode === 'responses' || call.mode === 'gemini' ? chatJsonOf(call) : null
  const p =
    call.mode === 'messages'
      ? anthropicPrompt(j)
      : call.mode === 'chat' || chat
        ? chatPrompt(chat ?? j)
        : inputPrompt(call.mode === 'completions' ? j.prompt : j.input)
  return p.extra + (await tokenizer.total(call.model, p.texts))
}

/** Anthropic messages: the system prompt, text and tool blocks, images at a flat rate. */
function anthropicPrompt(j: Record<string, any>): Countable {
  const texts: string[] = []
  let extra = 0
  if (typeof j.system === 'string') texts.push(j.system)
  else if (Array.isArray(j.system)) for (const b of j.system) texts.push(String(b?.text ?? ''))
  for (const m of (Array.isArray(j.messages) ? j.messages : []) as Array<Record<string, any>>) {
    extra += 3
    if (typeof m.content === 'string') texts.push(m.content)
    else if (Array.isArray(m.content)) {
      for (const b of m.content as Array<Record<string, any>>) {
        if (b?.type === 'text') texts.push(String(b.text ?? ''))
        else if (b?.type === 'image') extra += IMAGE_TOKENS
        else if (b?.type === 'tool_use') texts.push(JSON.stringify(b.input ?? {}))
        else if (b?.type === 'tool_result') texts.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? ''))
      }
    }
  }
  if (Array.isArray(j.tools) && j.tools.length) texts.push(JSON.stringify(j.tools))
  return { texts, extra }
}

/** OpenAI chat: role, content parts, name and tool calls of each message, and the tools. */
function chatPrompt(j: Record<string, any>): Countable {
  const texts: string[] = []
  let extra = 0
  for (const m of (Array.isArray(j.messages) ? j.messages : []) as Array<Record<string, any>>) {
    extra += 3
    texts.push(String(m.role ?? ''))
    if (typeof m.content === 'string') texts.push(m.content)
    else if (Array.isArray(m.content)) {
      for (const p of m.content as Array<Record<string, any>>) {
        if (p?.type === 'text') texts.push(String(p.text ?? ''))
        else if (p?.type === 'image_url') extra += p.image_url?.detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS
      }
    }
    if (typeof m.name === 'string') {
      extra += 1
      texts.push(m.name)
    }
    if (Array.isArray(m.tool_calls)) texts.push(JSON.stringify(m.tool_calls))
  }
  extra += 3
  if (Array.isArray(j.tools) && j.tools.length) texts.push(JSON.stringify(j.tools))
  return { texts, extra }
}

/** A completions prompt or an embeddings/moderations input: strings, or arrays of token ids. */
function inputPrompt(input: unknown): Countable {
  const texts: string[] = []
  let extra = 0
  for (const x of Array.isArray(input) ? input : [input]) {
    if (typeof x === 'string') texts.push(x)
    else if (Array.isArray(x)) extra += x.length
    else if (typeof x === 'number') extra += 1
  }
  return { texts, extra }
}

/** A bound the prompt cannot exceed, without a tokenizer: a token is at least one byte. */
export function promptUpperBound(call: RelayCall): number {
  let images = 0
  const messages = call.json?.messages
  if (Array.isArray(messages)) {
    for (const m of messages as Array<Record<string, any>>) {
      if (Array.isArray(m?.content)) for (const p of m.content) if (p?.type === 'image_url') images++
    }
  }
  return call.raw.length + images * IMAGE_TOKENS
}

/**
 * Stage 6: the usage when the upstream reported none (or the endpoint never does), counted from
 * both sides: the request, and what a stream `produced` or the plain `answer` holds.
 */
export async function countUsage(
  tokenizer: Tokenizer,
  call: RelayCall,
  produced: { texts: string[]; extraTokens: number } | null,
  answer: Buffer | null,
): Promise<Usage> {
  switch (call.mode) {
    case 'speech':
      return usageOf(String(call.json?.input ?? '').length, 0)
    case 'images':
      return usageOf(Math.max(1, Number(call.json?.n) || 1), 0)
    case 'embeddings':
    case 'moderations':
      return usageOf(await countPrompt(tokenizer, call), 0)
    case 'transcriptions':
    case 'translations':
      return usageOf(0, await tokenizer.total(call.model, [transcriptText(answer)]))
    default: {
      const prompt = await countPrompt(tokenizer, call)
      const out = produced ? { texts: produced.texts, extra: produced.extraTokens } : answer ? answerOutput(answer) : null
      return usageOf(prompt, (out?.extra ?? 0) + (await tokenizer.total(call.model, out?.texts ?? [])))
    }
  }
}

/** The text of a transcription answer (JSON with a text field, or the raw text formats). */
function transcriptText(answer: Buffer | null): string {
  const text = answer?.toString('utf8') ?? ''
  if (!text.startsWith('{')) return text
  try {
    return String((JSON.parse(text) as { text?: unknown }).text ?? '')
  } catch {
    return text
  }
}

/** What a plain answer produced, in whichever format the upstream answered: chat choices, Anthropic content, Responses output or Gemini candidates. */
function answerOutput(answer: Buffer): Countable {
  const out: Countable = { texts: [], extra: 0 }
  let j: Record<string, any>
  try {
    j = JSON.parse(answer.toString('utf8')) as Record<string, any>
  } catch {
    return out
  }
  if (Array.isArray(j.choices)) chatOutput(j.choices, out)
  else if (Array.isArray(j.content))
    for (const b of j.content) out.texts.push(b?.type === 'tool_use' ? JSON.stringify(b.input ?? {}) : String(b?.text ?? ''))
  else if (Array.isArray(j.output)) {
    for (const it of j.output) {
      if (it?.type === 'function_call') out.texts.push(String(it.name ?? ''), String(it.arguments ?? ''))
      else for (const c of Array.isArray(it?.content) ? it.content : []) out.texts.push(String(c?.text ?? ''))
    }
  } else if (Array.isArray(j.candidates)) {
    for (const p of j.candidates[0]?.content?.parts ?? [])
      out.texts.push(
        p?.functionCall ? String(p.functionCall.name ?? '') + JSON.stringify(p.functionCall.args ?? {}) : String(p?.text ?? ''),
      )
  }
  return out
}

function chatOutput(choices: Array<Record<string, any>>, out: Countable): void {
  for (const ch of choices) {
    if (typeof ch.text === 'string') out.texts.push(ch.text)
    const m = ch.message
    if (!m) continue
    out.texts.push(contentText(m.content))
    for (const t of m.tool_calls ?? []) {
      out.extra += 7
      out.texts.push(String(t.function?.name ?? ''), String(t.function?.arguments ?? ''))
    }
  }
}
