import { useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import { createTokens, loadToken, updateToken, userModels, type TokenBody } from '../../stores/tokens.ts'
import type { Token } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { now } from '../../stores/clock.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { formatQuota } from '../../ui/format.ts'
import { batchNames, expiryToInput, parseExpiry, shortcutInput } from './token-rules.ts'
import { firstProblem } from '../../../domain/problem.ts'
import { QUOTA_PRESETS } from '../../../domain/quota.ts'
import { parseInteger, splitList } from '../../../domain/text.ts'
import {
  BATCH_MAX,
  BATCH_PRESETS,
  EDIT_TOKEN_QUOTA,
  EXPIRY_SHORTCUTS,
  expiryProblem,
  modelLimitsChosenProblem,
  modelLimitsProblem,
  NEW_TOKEN_QUOTA,
  remainQuotaProblem,
  TOKEN_NAME_MAX,
  tokenNameProblem,
} from '../../../domain/token-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '../../i18n/en/tokens.ts'

export type DrawerMode = { kind: 'create' } | { kind: 'edit'; id: number }

interface Fields {
  name: string
  remainQuota: string
  unlimited: boolean
  expiry: string
  limitsEnabled: boolean
  limits: string[]
  count: string
}

const blank = (quota: number): Fields => ({
  name: '',
  remainQuota: String(quota),
  unlimited: false,
  expiry: '',
  limitsEnabled: false,
  limits: [],
  count: '1',
})

const fromToken = (t: Token): Fields => ({
  name: t.name,
  remainQuota: String(t.remain_quota),
  unlimited: t.unlimited_quota,
  expiry: expiryToInput(t.expired_time),
  limitsEnabled: t.model_limits_enabled,
  limits: splitList(t.model_limits),
  count: '1',
})

const valueOf = (e: Event) => (e.target as HTMLInputElement).value
const checkedOf = (e: Event) => (e.target as HTMLInputElement).checked

/**
 * The create/edit side drawer: name (required on create), remaining quota with presets (disabled
 * when unlimited), expiry with shortcuts, model limits with their switch and, on create, how many
 * tokens to make at once.
 */
export function TokenDrawer({
  mode,
  onClose,
  onCreated,
}: {
  mode: DrawerMode | null
  onClose: () => void
  /** tokens were created (the list reloads itself) */
  onCreated: (count: number) => void
}) {
  const t = useT()
  const status = useStore($status)
  const [fields, setFields] = useState<Fields>(blank(NEW_TOKEN_QUOTA))
  const [models, setModels] = useState<string[]>([])
  const [message, setMessage] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [busy, setBusy] = useState(false)
  const editing = mode?.kind === 'edit'
  const open = mode !== null
  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }))

  useEffect(() => {
    if (!mode) return
    let cancelled = false
    setMessage(null)
    setFields(blank(mode.kind === 'edit' ? EDIT_TOKEN_QUOTA : NEW_TOKEN_QUOTA))
    void userModels().then((list) => !cancelled && setModels(list))
    if (mode.kind === 'edit') {
      setLoading(true)
      loadToken(mode.id)
        .then((token) => !cancelled && setFields(fromToken(token)))
        .catch(() => !cancelled && onClose())
        .finally(() => !cancelled && setLoading(false))
    }
    return () => {
      cancelled = true
    }
  }, [mode, onClose])

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!mode || busy || loading) return
    setMessage(null)
    const name = fields.name.trim()
    const expiredTime = parseExpiry(fields.expiry) ?? Number.NaN
    const typed = parseInteger(fields.remainQuota)
    // an unlimited token keeps whatever quota it had; an unreadable one counts as 0
    const remain = fields.unlimited && !(typed >= 0) ? 0 : typed
    const modelLimits = fields.limits.join(',')
    const problem = firstProblem(
      tokenNameProblem(name),
      expiryProblem(expiredTime),
      remainQuotaProblem(remain),
      modelLimitsProblem(modelLimits),
      modelLimitsChosenProblem(fields.limitsEnabled, modelLimits),
    )
    if (problem) return setMessage(problem.id === 'token.expiryInvalid' ? t('token.expiryFormatDrawer') : problemMessage(t, problem))
    const body: TokenBody = {
      name,
      remain_quota: remain,
      expired_time: expiredTime,
      unlimited_quota: fields.unlimited,
      model_limits_enabled: fields.limitsEnabled,
      model_limits: modelLimits,
    }
    setBusy(true)
    try {
      if (mode.kind === 'edit') {
        await updateToken(mode.id, body)
        toast.success(t('token.updated'))
        onClose()
        return
      }
      const count = Math.min(BATCH_MAX, Math.max(1, Number.parseInt(fields.count, 10) || 1))
      // a batch stops at its first refusal (the client showed why)
      const created = await createTokens(body, batchNames(name, count))
      if (created > 0) {
        toast.success(t('token.created', { count: created }))
        onCreated(created)
        onClose()
      }
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false)
    }
  }

  const choices = [...new Set([...models, ...fields.limits])]

  return (
    <sl-drawer
      label={editing ? t('token.editTitle') : t('token.createTitle')}
      open={open}
      className="tg-token-drawer"
      data-testid="token-drawer"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}
      onsl-initial-focus={(e: Event) => {
        if (e.target !== e.currentTarget) return
        e.preventDefault()
        ;(e.currentTarget as HTMLElement).querySelector<HTMLElement>('[data-autofocus]')?.focus()
      }}
    >
      <form className="tg-form" onSubmit={submit} noValidate aria-busy={loading}>
        {message && <FormMessage variant="danger">{message}</FormMessage>}
        <sl-input
          name="name"
          data-autofocus=""
          label={t('token.field.name')}
          placeholder={t('token.placeholder.name')}
          maxlength={TOKEN_NAME_MAX}
          required={!editing}
          value={fields.name}
          onsl-input={(e: Event) => set({ name: valueOf(e) })}
        ></sl-input>

        <fieldset className="tg-fieldset">
          <legend>{t('token.field.quota')}</legend>
          <sl-input
            name="remain_quota"
            type="number"
            min={0}
            step={1}
            label={t('token.field.remainQuota')}
            help-text={
              fields.unlimited
                ? t('token.unlimitedHint')
                : t('token.quotaHint', {
                    amount: formatQuota(Math.max(0, parseInteger(fields.remainQuota) || 0), {
                      display_in_currency: true,
                      quota_per_unit: status?.quota_per_unit || 0,
                    }),
                  })
            }
            disabled={fields.unlimited}
            value={fields.remainQuota}
            onsl-input={(e: Event) => set({ remainQuota: valueOf(e) })}
          ></sl-input>
          <div className="tg-chips" role="group" aria-label={t('token.quotaPresets')}>
            {QUOTA_PRESETS.map(({ quota: q }) => (
              <sl-button
                key={q}
                size="small"
                pill
                disabled={fields.unlimited}
                variant={fields.remainQuota === String(q) ? 'primary' : 'default'}
                data-quota-preset={q}
                onClick={() => set({ remainQuota: String(q) })}
              >
                {formatQuota(q, { display_in_currency: true, quota_per_unit: status?.quota_per_unit || 0 }, 0)}
              </sl-button>
            ))}
          </div>
          <sl-switch name="unlimited_quota" checked={fields.unlimited} onsl-change={(e: Event) => set({ unlimited: checkedOf(e) })}>
            {t('token.field.unlimited')}
          </sl-switch>
        </fieldset>

        <fieldset className="tg-fieldset">
          <legend>{t('token.field.expiry')}</legend>
          <sl-input
            name="expired_time"
            label={t('token.field.expiryTime')}
            placeholder={t('token.placeholder.expiry')}
            help-text={t('token.expiryHint')}
            value={fields.expiry}
            onsl-input={(e: Event) => set({ expiry: valueOf(e) })}
          ></sl-input>
          <div className="tg-chips" role="group" aria-label={t('token.expiryShortcuts')}>
            {EXPIRY_SHORTCUTS.map((s) => (
              <sl-button key={s.key} size="small" pill data-expiry={s.key} onClick={() => set({ expiry: shortcutInput(s.seconds, now()) })}>
                {t(`token.expiry.${s.key}`)}
              </sl-button>
            ))}
          </div>
        </fieldset>

        <fieldset className="tg-fieldset">
          <legend>{t('token.field.modelLimits')}</legend>
          <sl-switch
            name="model_limits_enabled"
            checked={fields.limitsEnabled}
            onsl-change={(e: Event) => set({ limitsEnabled: checkedOf(e) })}
          >
            {t('token.field.limitsEnabled')}
          </sl-switch>
          <sl-select
            name="model_limits"
            label={t('token.field.models')}
            placeholder={choices.length ? t('token.placeholder.models') : t('token.noModels')}
            multiple
            clearable
            max-options-visible={4}
            disabled={!fields.limitsEnabled}
            value={fields.limits}
            onsl-change={(e: Event) => {
              const v = (e.target as HTMLElement & { value: string | string[] }).value
              set({ limits: Array.isArray(v) ? v : v ? [v] : [] })
            }}
          >
            {choices.map((m) => (
              <sl-option key={m} value={m}>
                {m}
              </sl-option>
            ))}
          </sl-select>
        </fieldset>

        {!editing && (
          <fieldset className="tg-fieldset">
            <legend>{t('token.field.batch')}</legend>
            <sl-input
              name="count"
              type="number"
              min={1}
              max={BATCH_MAX}
              step={1}
              label={t('token.field.count')}
              help-text={t('token.countHint')}
              value={fields.count}
              onsl-input={(e: Event) => set({ count: valueOf(e) })}
            ></sl-input>
            <div className="tg-chips" role="group" aria-label={t('token.batchPresets')}>
              {BATCH_PRESETS.map((n) => (
                <sl-button
                  key={n}
                  size="small"
                  pill
                  data-batch={n}
                  variant={fields.count === String(n) ? 'primary' : 'default'}
                  onClick={() => set({ count: String(n) })}
                >
                  {n}
                </sl-button>
              ))}
            </div>
          </fieldset>
        )}

        <div className="tg-drawer-actions">
          <sl-button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </sl-button>
          <sl-button type="submit" variant="primary" loading={busy} disabled={loading} data-action="save">
            {editing ? t('token.save') : t('token.create')}
          </sl-button>
        </div>
      </form>
    </sl-drawer>
  )
}
