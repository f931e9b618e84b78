import { useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useSettingsLabels } from './personal-labels.ts'
import * as selfApi from '../../api/self.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { consoleUrl } from '../../stores/config.ts'
import { refreshUser } from '../../stores/account.ts'
import { formatQuota, quotaPerUnit } from '../../ui/format.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { FormDialog, useDialogSubmit } from '../../ui/form-dialog.tsx'
import { problemMessage } from '../../i18n/t.ts'
import { transferProblem } from '../../../domain/account-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/clipboard.ts'
import '../../i18n/en/settings.ts'

/** The invite link: the registration page with the user's invite code as ?aff=. */
function inviteLink(code: string): string {
  return new URL(consoleUrl(`/register?aff=${encodeURIComponent(code)}`), location.href).href
}

function TransferDialog({ open, pending, onClose }: { open: boolean; pending: number; onClose: () => void }) {
  const t = useSettingsLabels()
  const status = useStore($status)
  const min = quotaPerUnit(status)
  const [amount, setAmount] = useState(String(pending))
  const { message, busy, run } = useDialogSubmit(onClose)

  function submit(e: FormEvent) {
    e.preventDefault()
    const quota = Math.trunc(Number(amount))
    // at least one quota unit (QuotaPerUnit), the server's own rule
    const small = transferProblem(quota, min)
    const problem = small ? problemMessage(t, small, { min: formatQuota(min, status) }) : null
    void run(problem, () => selfApi.affTransfer(quota), t('settings.invite.transferred'), refreshUser)
  }

  return (
    <FormDialog
      label={t('settings.invite.transferTitle')}
      name="transfer"
      open={open}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('settings.invite.transfer')}
      cancelLabel={t('common.cancel')}
    >
      <p className="tg-muted tg-small">
        {t('settings.invite.transferHint', { pending: formatQuota(pending, status), x: formatQuota(min, status) })}
      </p>
      {message && <FormMessage>{message}</FormMessage>}
      <sl-input
        label={t('settings.invite.amount')}
        name="transfer-quota"
        type="number"
        min={0}
        step={1}
        value={amount}
        help-text={Number(amount) > 0 ? formatQuota(Math.trunc(Number(amount)), status) : ''}
        onsl-input={(e: Event) => setAmount((e.target as HTMLInputElement).value)}
      ></sl-input>
    </FormDialog>
  )
}

/** The invite link, pending earnings with the transfer, total earnings and invite count. */
export function InviteCard({ user, onCopy }: { user: User; onCopy: (text: string) => void }) {
  const t = useSettingsLabels()
  const status = useStore($status)
  const [code, setCode] = useState<string | null>(user.aff_code || null)
  const [failed, setFailed] = useState(false)
  const [transferring, setTransferring] = useState(false)

  useEffect(() => {
    let live = true
    selfApi
      .affCode()
      .then((c) => live && setCode(c))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [user.id])

  const link = code ? inviteLink(code) : ''
  return (
    <section className="tg-settings-card" aria-labelledby="tg-invite-title" data-card="invite">
      <h2 id="tg-invite-title" className="tg-settings-card__title">
        {t('settings.invite.title')}
      </h2>
      <p className="tg-muted tg-small">{t('settings.invite.body')}</p>
      <div className="tg-inline-field">
        <sl-input
          name="invite-link"
          readonly
          value={link}
          placeholder={failed ? t('settings.invite.linkFailed') : t('common.loading')}
          label={t('settings.invite.link')}
        ></sl-input>
        <sl-button onClick={() => link && onCopy(link)} disabled={!link} data-action="copy-invite">
          <sl-icon slot="prefix" name="clipboard"></sl-icon>
          {t('common.copy')}
        </sl-button>
      </div>
      <dl className="tg-stats">
        <div>
          <dt>{t('settings.invite.pending')}</dt>
          <dd data-fact="aff-quota">{formatQuota(user.aff_quota, status)}</dd>
        </div>
        <div>
          <dt>{t('settings.invite.total')}</dt>
          <dd data-fact="aff-history">{formatQuota(user.aff_history_quota, status)}</dd>
        </div>
        <div>
          <dt>{t('settings.invite.count')}</dt>
          <dd data-fact="aff-count">{user.aff_count}</dd>
        </div>
      </dl>
      <div>
        <sl-button variant="primary" outline onClick={() => setTransferring(true)} data-action="transfer">
          {t('settings.invite.transfer')}
        </sl-button>
      </div>
      {transferring && <TransferDialog open={transferring} pending={user.aff_quota} onClose={() => setTransferring(false)} />}
    </section>
  )
}
