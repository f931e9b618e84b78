import { onMount } from 'nanostores'
import { persistentAtom } from '@nanostores/persistent'
import * as statusApi from '../api/status.ts'
import type { PublicStatus } from '../api/types.ts'
import { translate, wordsReady } from '../i18n/t.ts'
import { toast } from './toasts.ts'

const json = {
  encode: (v: PublicStatus | null) => (v ? JSON.stringify(v) : undefined),
  decode: (s: string): PublicStatus | null => {
    try {
      const parsed = JSON.parse(s)
      return parsed && typeof parsed === 'object' ? parsed : null
    } catch {
      return null
    }
  },
}

/** The public status (GET /api/status), cached in localStorage and refreshed once per page load. */
export const $status = persistentAtom<PublicStatus | null>('tollgate:status', null, json)

let loading: Promise<PublicStatus | null> | null = null

/** Fetches the status again; on failure keeps the cached copy and says 'cannot connect to the server normally'. */
export function refreshStatus(): Promise<PublicStatus | null> {
  loading ??= statusApi
    .load()
    .then((status) => {
      $status.set(status)
      return status
    })
    .catch(async () => {
      await wordsReady()
      toast.error(translate('status.loadFailed'))
      return null
    })
    .finally(() => {
      loading = null
    })
  return loading
}

let loadedOnce = false
onMount($status, () => {
  if (!loadedOnce) {
    loadedOnce = true
    void refreshStatus()
  }
})
