import { atom } from 'nanostores'
import { persistentAtom } from '@nanostores/persistent'
import * as channelsApi from '../api/channels.ts'

const json = {
  encode: (v: Record<string, string[]>) => JSON.stringify(v),
  decode: (s: string): Record<string, string[]> => {
    try {
      const parsed = JSON.parse(s)
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
    } catch {
      return {}
    }
  },
}

/** GET /api/models (channel type to its model names), cached locally (spec section 7). */
export const $modelsByType = persistentAtom<Record<string, string[]>>('tollgate:models', {}, json)

/** Every built-in model name (GET /api/channel/models), for the suggestions of the model box. */
export const $allModels = atom<string[]>([])

let loading: Promise<void> | null = null

/** Refreshes both lists (the channel screen asks on mount); the cached copy serves meanwhile. */
export function refreshModels(): Promise<void> {
  loading ??= Promise.all([
    channelsApi.modelsByType().then((m) => $modelsByType.set(m)),
    channelsApi.allModels().then((m) => $allModels.set(m)),
  ])
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => {
      loading = null
    })
  return loading
}
