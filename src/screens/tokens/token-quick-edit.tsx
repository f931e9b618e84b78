import { useState, type FormEvent } from 'react'
import { useT, problemMessage } from '../../i18n/t.ts'
import { updateToken } from '../../stores/tokens.ts'
import type { Token } from '../../api/types.ts'
import { now } from '../../stores/clock.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { expiryToInput, parseExpiry, shortcutInput } from './token-rules.ts'
import { firstProblem } from '../../../domain/problem.ts'
import { parseInteger } from '../../../domain/text.ts'
import { EXPIRY_SHORTCUTS, expiryProblem, remainQuotaProblem, TOKEN_NAME_MAX, tokenNameProblem } from '../../../domain/token-rules.ts'
import { valueOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../i18n/en/tokens.ts'

interface QuickForm {
  name: string
  quota: string
  expiry: string
}

/** The quick edit's save: checks by the server's rules, then the update; `message` says what is wrong. */
function useQuickSave(token: Token, onDone: () => void) {
  const t = useT()
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function save({ name, quota, expiry }: QuickForm) {
    if (busy) return
    setMessage(null)
    const expiredTime = parseExpiry(expiry) ?? Number.NaN
    const remain = token.unlimited_quota ? token.remain_quota : parseInteger(quota)
    const problem = firstProblem(expiryProblem(expiredTime), remainQuotaProblem(remain), tokenNameProblem(name))
    if (problem) return setMessage(problemMessage(t, problem))
    setBusy(true)
    try {
      await updateToken(token.id, { name: name.trim(), remain_quota: remain, expired_time: expiredTime })
      toast.success(t('token.updated'))
      onDone()
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false)
    }
  }
  return { message, busy, save }
}

/**
 * The inline edit of one row: name, remaining quota and expiry, without leaving the list. The full
 * form (model limits, unlimited quota) is the drawer.
 */
export function TokenQuickEdit({ token, onDone, onCancel }: { token: Token; onDone: () => void; onCancel: () => void }) {
  const t = useT()
  const [name, setName] = useState(token.name)
  const [quota, setQuota] = useState(String(token.remain_quota))
  const [expiry, setExpiry] = useState(expiryToInput(token.expired_time))
  const { message, busy, save } = useQuickSave(token, onDone)

  function submit(e: FormEvent) {
    e.preventDefault()
    void save({ name, quota, expiry })
  }

  return (
    <form
      className="tg-quick-edit"
      data-testid="quick-edit"
      onSubmit={submit}
      noValidate
      aria-label={t('token.quickEditTitle', { name: token.name })}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onCancel()
        }
      }}
    >
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <div className="tg-quick-edit__fields">
        <sl-input
          name="quick_name"
          size="small"
          label={t('token.field.name')}
          maxlength={TOKEN_NAME_MAX}
          value={name}
          autofocus
          onsl-input={(e: Event) => setName(valueOf(e))}
        ></sl-input>
        <sl-input
          name="quick_remain_quota"
          size="small"
          type="number"
          min={0}
          step={1}
          label={t('token.field.remainQuota')}
          disabled={token.unlimited_quota}
          help-text={token.unlimited_quota ? t('token.unlimitedHint') : ''}
          value={quota}
          onsl-input={(e: Event) => setQuota(valueOf(e))}
        ></sl-input>
        <sl-input
          name="quick_expired_time"
          size="small"
          label={t('token.field.expiryTime')}
          placeholder={t('token.placeholder.expiry')}
          value={expiry}
          onsl-input={(e: Event) => setExpiry(valueOf(e))}
        ></sl-input>
      </div>
      <div className="tg-quick-edit__bar">
        <div className="tg-chips" role="group" aria-label={t('token.expiryShortcuts')}>
          {EXPIRY_SHORTCUTS.map((s) => (
            <sl-button key={s.key} size="small" pill data-expiry={s.key} onClick={() => setExpiry(shortcutInput(s.seconds, now()))}>
              {t(`token.expiry.${s.key}`)}
            </sl-button>
          ))}
        </div>
        <div className="tg-quick-edit__actions">
          <sl-button size="small" onClick={onCancel}>
            {t('common.cancel')}
          </sl-button>
          <sl-button size="small" type="submit" variant="primary" loading={busy} data-action="quick-save">
            {t('token.save')}
          </sl-button>
        </div>
      </div>
    </form>
  )
}
