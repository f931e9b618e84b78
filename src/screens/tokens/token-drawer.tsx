import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { $status } from '../../stores/status.ts'
import { now } from '../../stores/clock.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { formatQuota } from '../../ui/format.ts'
import { shortcutInput } from './token-rules.ts'
import { useTokenFields, useTokenSave, type DrawerMode, type Fields, type SetFields } from './token-form.ts'
import { QUOTA_PRESETS } from '../../../domain/quota.ts'
import { parseInteger } from '../../../domain/text.ts'
import { BATCH_MAX, BATCH_PRESETS, EXPIRY_SHORTCUTS, TOKEN_NAME_MAX } from '../../../domain/token-rules.ts'
import { checkedOf, valueOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '../../i18n/en/tokens.ts'

export type { DrawerMode } from './token-form.ts'

/** What every section of the form gets: the fields as typed and how to change them. */
interface SectionProps {
  fields: Fields
  set: SetFields
}

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
  const [message, setMessage] = useState<string | null>(null)
  const { fields, set, models, loading } = useTokenFields(mode, onClose, setMessage)
  const { busy, submit } = useTokenSave({ mode, fields, loading, setMessage, onClose, onCreated })
  const editing = mode?.kind === 'edit'

  return (
    <sl-drawer
      label={editing ? t('token.editTitle') : t('token.createTitle')}
      open={mode !== null}
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
        <QuotaSection fields={fields} set={set} />
        <ExpirySection fields={fields} set={set} />
        <ModelLimitsSection fields={fields} set={set} models={models} />
        {!editing && <BatchSection fields={fields} set={set} />}
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

/** The remaining quota, its presets (in the site's currency) and the unlimited switch. */
function QuotaSection({ fields, set }: SectionProps) {
  const t = useT()
  const status = useStore($status)
  const currency = { display_in_currency: true, quota_per_unit: status?.quota_per_unit || 0 }
  return (
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
            : t('token.quotaHint', { amount: formatQuota(Math.max(0, parseInteger(fields.remainQuota) || 0), currency) })
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
            {formatQuota(q, currency, 0)}
          </sl-button>
        ))}
      </div>
      <sl-switch name="unlimited_quota" checked={fields.unlimited} onsl-change={(e: Event) => set({ unlimited: checkedOf(e) })}>
        {t('token.field.unlimited')}
      </sl-switch>
    </fieldset>
  )
}

/** The expiry as typed, and the shortcuts that fill it in from now. */
function ExpirySection({ fields, set }: SectionProps) {
  const t = useT()
  return (
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
  )
}

/** The model limits switch and the models to choose from: the user's, plus any the token already names. */
function ModelLimitsSection({ fields, set, models }: SectionProps & { models: string[] }) {
  const t = useT()
  const choices = [...new Set([...models, ...fields.limits])]
  return (
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
  )
}

/** On create only: how many tokens to make at once, with presets. */
function BatchSection({ fields, set }: SectionProps) {
  const t = useT()
  return (
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
  )
}
