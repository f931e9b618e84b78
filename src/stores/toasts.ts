import { atom } from 'nanostores'

type ToastVariant = 'primary' | 'success' | 'neutral' | 'warning' | 'danger'

export interface Toast {
  id: number
  variant: ToastVariant
  message: string
  /** ms before it closes itself; Infinity keeps it until closed */
  duration: number
  /** the user's actions (clicks, keys) before it was shown: see showToast */
  gesture: number
}

/** Messages waiting to be shown. Each element renders them inside its own shadow root. */
export const $toasts = atom<Toast[]>([])

let nextId = 1
const DURATION: Record<ToastVariant, number> = { primary: 4000, success: 3000, neutral: 4000, warning: 8000, danger: 6000 }

/**
 * Counts the user's clicks and key presses on the page. An error shown before the user's latest
 * action belongs to an earlier attempt: a success after that action closes it, so an earlier
 * error never stays next to a later success (issue 13, item 9). An error of the same attempt (one
 * refused call of a batch) stays beside its partial success.
 */
let gestures = 0
const count = () => void gestures++
if (typeof window !== 'undefined') for (const type of ['click', 'keydown']) window.addEventListener(type, count, true)

export function showToast(variant: ToastVariant, message: string, duration = DURATION[variant]): number {
  const id = nextId++
  const stale = (t: Toast) => variant === 'success' && t.variant === 'danger' && t.gesture < gestures
  // the same text twice in a row (two failing calls at once) is shown once
  const rest = $toasts.get().filter((t) => !(t.message === message && t.variant === variant) && !stale(t))
  $toasts.set([...rest, { id, variant, message, duration, gesture: gestures }].slice(-5))
  return id
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id))
}

export const toast = {
  success: (message: string) => showToast('success', message),
  info: (message: string) => showToast('primary', message),
  warning: (message: string, duration?: number) => showToast('warning', message, duration),
  error: (message: string) => showToast('danger', message),
}

/**
 * Which toast region shows the toasts: several elements on one page each render a region, and
 * only one of them (the console's if there is one, else the first mounted) may show them.
 */
const regions: Array<{ id: number; priority: number }> = []
export const $toastRegion = atom<number | null>(null)
let nextRegion = 1

export function claimToastRegion(priority: number): { id: number; release: () => void } {
  const id = nextRegion++
  regions.push({ id, priority })
  const pick = () => {
    const best = regions.reduce<{ id: number; priority: number } | null>((a, r) => (!a || r.priority > a.priority ? r : a), null)
    $toastRegion.set(best?.id ?? null)
  }
  pick()
  return {
    id,
    release: () => {
      const i = regions.findIndex((r) => r.id === id)
      if (i >= 0) regions.splice(i, 1)
      pick()
    },
  }
}
