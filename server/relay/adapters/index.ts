import type { Adapter } from './types.ts'
import { OPENAI_COMPATIBLE, azureAdapter, openaiAdapter } from './openai.ts'
import { claudeAdapter } from './claude.ts'
import { geminiAdapter } from './gemini.ts'

export type { Adapter, Mode, RelayCall, StreamTranslator } from './types.ts'

/** Channel type names of spec section 3, for messages. */
export const CHANNEL_TYPE_NAMES: Record<number, string> = {
  1: 'OpenAI',
  2: 'image-relay proxy',
  3: 'Azure OpenAI',
  4: 'Ollama',
  5: 'image-relay proxy plus',
  8: 'custom',
  11: 'PaLM2',
  14: 'Anthropic Claude',
  15: 'Baidu',
  16: 'Zhipu ChatGLM',
  17: 'Alibaba',
  18: 'iFlytek',
  19: '360',
  21: 'AI Proxy knowledge base',
  22: 'FastGPT knowledge base',
  23: 'Tencent',
  24: 'Google Gemini',
  25: 'Moonshot',
  26: 'Zhipu GLM-4V',
  31: 'Yi',
  33: 'AWS Claude',
  34: 'Cohere',
  35: 'MiniMax',
  41: 'Suno',
  43: 'Luma',
  45: 'Viggle',
  47: 'Runway',
  49: 'Udio',
  51: 'Ideogram',
  53: 'Kling',
  55: 'Pika',
  57: 'LumaV2',
  58: 'Pixverse',
  59: 'Replicate',
  61: 'RunwayML',
  63: 'HiggsField',
  64: 'Riffusion',
  65: 'bfl.ai',
  66: 'fal.ai',
}

export function channelTypeName(type: number): string {
  return CHANNEL_TYPE_NAMES[type] ?? `unknown type ${type}`
}

const cache = new Map<number, Adapter | null>()

/** The adapter that speaks a channel type's protocol, or null when the relay does not speak it. */
export function adapterFor(type: number): Adapter | null {
  let a = cache.get(type)
  if (a !== undefined) return a
  if (OPENAI_COMPATIBLE[type]) a = openaiAdapter(type)
  else if (type === 3) a = azureAdapter
  else if (type === 14) a = claudeAdapter
  else if (type === 24) a = geminiAdapter
  else a = null
  cache.set(type, a)
  return a
}
