import { useEffect, useState } from 'react'
import { useStore } from '@nanostores/react'
import { $toastRegion, $toasts, claimToastRegion, dismissToast, type Toast } from '../stores/toasts.ts'
import { useT } from '../i18n/t.ts'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import './icons/check2-circle.ts'
import './icons/exclamation-triangle.ts'
import './icons/info-circle.ts'
import './icons/x-octagon.ts'

const ICON: Record<Toast['variant'], string> = {
  primary: 'info-circle',
  success: 'check2-circle',
  neutral: 'info-circle',
  warning: 'exclamation-triangle',
  danger: 'x-octagon',
}

function ToastItem({ item }: { item: Toast }) {
  const t = useT()
  useEffect(() => {
    if (!Number.isFinite(item.duration)) return
    const timer = setTimeout(() => dismissToast(item.id), item.duration)
    return () => clearTimeout(timer)
  }, [item.id, item.duration])
  return (
    <div
      className={`tg-toast tg-toast--${item.variant}`}
      role={item.variant === 'danger' || item.variant === 'warning' ? 'alert' : 'status'}
    >
      <sl-icon name={ICON[item.variant]} aria-hidden="true"></sl-icon>
      <span className="tg-toast__message">{item.message}</span>
      <sl-icon-button name="x-lg" library="system" label={t('common.close')} onClick={() => dismissToast(item.id)}></sl-icon-button>
    </div>
  )
}

/**
 * Shows the page's toasts inside this element's shadow root, where the theme applies (Shoelace's
 * own toast stack lives in document.body, outside every shadow root). When several elements share
 * a page only one region shows them: the console's, else the first one mounted.
 */
export function ToastRegion({ priority = 0 }: { priority?: number }) {
  const [claim, setClaim] = useState<number | null>(null)
  useEffect(() => {
    const c = claimToastRegion(priority)
    setClaim(c.id)
    return c.release
  }, [priority])
  const owner = useStore($toastRegion)
  const toasts = useStore($toasts)
  const mine = claim !== null && owner === claim
  return (
    <div className="tg-toasts" part="toasts" aria-live="polite">
      {mine && toasts.map((item) => <ToastItem key={item.id} item={item} />)}
    </div>
  )
}
