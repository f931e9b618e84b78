import type { Adapter } from './types.ts'
import { OPENAI_COMPATIBLE, azureAdapter, openaiAdapter } from './openai.ts'
import { claudeAdapter } from './claude.ts'
import { geminiAdapter } from './gemini.ts'
import { channelType } from '../../../domain/channel-types.ts'

export type { Adapter, Mode, RelayCall, StreamTranslator } from './types.ts'

const cache = new Map<number, Adapter | null>()

/** The adapter that speaks a channel type's wire format (domain/channel-types.ts), or null when the relay does not speak it. */
export function adapterFor(type: number): Adapter | null {
  let a = cache.get(type)
  if (a !== undefined) return a
  switch (channelType(type)?.format) {
    case 'openai':
      a = OPENAI_COMPATIBLE[type] ? openaiAdapter(type) : null
      break
    case 'azure':
      a = azureAdapter
      break
    case 'anthropic':
      a = claudeAdapter
      break
    case 'gemini':
      a = geminiAdapter
      break
    default:
      a = null
  }
  cache.set(type, a)
  return a
}
