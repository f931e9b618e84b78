import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as redemptionsApi from '../../api/redemptions.ts'
import type { Redemption } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { formatQuota } from '../../ui/format.ts'
import { AdminDrawer, DrawerActions } from '../../ui/admin/drawer.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { bodyProblem, codesFile, createBody, DEFAULT_REDEMPTION, int, type RedemptionForm } from './redemption-rules.ts'
import { QUOTA_PRESETS } from '../../../domain/quota.ts'
import type { Problem } from '../../../domain/problem.ts'
import { REDEMPTION_COUNT_MAX, REDEMPTION_NAME_MAX } from '../../../domain/redemption-rules.ts'
import { setField } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/download.ts'
import '../../i18n/en/redemptions.ts'

interface RedemptionDrawerProps {
  /** the code being edited, 'new' for the create form, null when closed */
  editing: Redemption | 'new' | null
  onClose: () => void
  /** after a save the server confirmed: the codes generated, or the code updated */
  onSaved: (result: { created?: { name: string; codes: string[] }; updated?: Redemption }) => void
}

/** Create (name, quota, count) or edit (name, quota) a redemption code. */
export function RedemptionDrawer({ editing, onClose, onSaved }: RedemptionDrawerProps) {
  const L = useLabels()
  return (
    <AdminDrawer
      name="redemption"
      editing={editing}
      addLabel={L('redemptions.addTitle')}
      editLabel={L('redemptions.editTitle')}
      onClose={onClose}
    >
      {(shown) => <RedemptionEditor key={shown === 'new' ? 'new' : shown.id} editing={shown} onClose={onClose} onSaved={onSaved} />}
    </AdminDrawer>
  )
}

type EditorProps = Omit<RedemptionDrawerProps, 'editing'> & { editing: Redemption | 'new' }

/** Saving the form: a create (the codes it generated) or an update, checked by the server's rules first. */
function useRedemptionSave({ editing, onSaved }: Omit<EditorProps, 'onClose'>, focusName: () => void) {
  const t = useT()
  const [busy, setBusy] = useState(false)

  /** A problem by the rules the server applies too: shown the way the server's refusals are. */
  function refused(problem: Problem | null): boolean {
    if (problem) toast.error(problemMessage(t, problem))
    return problem !== null
  }

  async function save(form: RedemptionForm) {
    setBusy(true)
    try {
      if (editing === 'new') {
        const body = createBody(form)
        // spec section 5: an empty name stops the create without a message
        if (!body) {
          focusName()
          return
        }
        if (refused(bodyProblem(body))) return
        const codes = await redemptionsApi.create(body)
        toast.success(t('redemptions.created'))
        onSaved({ created: { name: body.name, codes } })
      } else {
        const body = { name: form.name.trim(), quota: int(form.quota) }
        if (refused(bodyProblem(body))) return
        const updated = await redemptionsApi.update({ id: editing.id, ...body })
        toast.success(t('redemptions.updated'))
        onSaved({ updated })
      }
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }
  return { busy, save }
}

function RedemptionEditor({ editing, onClose, onSaved }: EditorProps) {
  const L = useLabels()
  const status = useStore($status)
  const isNew = editing === 'new'
  const [form, setForm] = useState<RedemptionForm>(() =>
    isNew ? { ...DEFAULT_REDEMPTION } : { name: editing.name, quota: String(editing.quota), count: '1' },
  )
  const nameRef = useRef<HTMLElement>(null)
  const { busy, save } = useRedemptionSave({ editing, onSaved }, () => nameRef.current?.focus())
  const set = (key: keyof RedemptionForm) => setField(setForm, key)

  function submit(e: FormEvent) {
    e.preventDefault()
    void save(form)
  }

  const quota = int(form.quota)
  return (
    <form className="tg-admin__form" onSubmit={submit} noValidate data-form="redemption">
      <sl-input
        ref={nameRef}
        label={L('redemptions.field.name')}
        name="name"
        required={isNew}
        maxlength={REDEMPTION_NAME_MAX}
        autocomplete="off"
        value={form.name}
        onsl-input={set('name')}
      ></sl-input>
      <sl-input
        label={L('redemptions.field.quota')}
        name="quota"
        type="number"
        min="1"
        step="1"
        help-text={L('users.quotaEquals', {
          amount: formatQuota(quota, { quota_per_unit: status?.quota_per_unit ?? 0, display_in_currency: true }),
        })}
        value={form.quota}
        onsl-input={set('quota')}
      ></sl-input>
      <div className="tg-admin__presets" role="group" aria-label={L('redemptions.presets')}>
        {QUOTA_PRESETS.map((p) => (
          <sl-button
            key={p.quota}
            size="small"
            pill
            data-preset={p.quota}
            variant={quota === p.quota ? 'primary' : 'default'}
            onClick={() => setForm((f) => ({ ...f, quota: String(p.quota) }))}
          >
            {`$${p.dollars}`}
          </sl-button>
        ))}
      </div>
      {isNew && (
        <sl-input
          label={L('redemptions.field.count')}
          name="count"
          type="number"
          min="1"
          max={REDEMPTION_COUNT_MAX}
          step="1"
          help-text={L('redemptions.countHelp')}
          value={form.count}
          onsl-input={set('count')}
        ></sl-input>
      )}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}

/**
 * The codes a create generated: shown, copied at once, and offered as a text file named after the
 * name (a download link to a Blob of the codes, one per line).
 */
export function CreatedCodesDialog({
  created,
  onCopy,
  onClose,
}: {
  created: { name: string; codes: string[] } | null
  onCopy: (text: string) => void
  onClose: () => void
}) {
  const t = useT()
  const L = useLabels()
  const file = useMemo(() => (created ? codesFile(created.name, created.codes) : null), [created])
  const [href, setHref] = useState<string | null>(null)
  useEffect(() => {
    if (!file) return
    const url = URL.createObjectURL(file.blob)
    setHref(url)
    return () => URL.revokeObjectURL(url)
  }, [file])
  return (
    <sl-dialog
      label={created ? L('redemptions.createdTitle', { n: created.codes.length }) : ''}
      open={created !== null}
      data-dialog="codes"
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) onClose()
      }}
    >
      {created && (
        <>
          <p className="tg-admin__note">{L('redemptions.createdBody')}</p>
          <textarea
            className="tg-copy__text tg-admin__codes"
            readOnly
            rows={Math.min(8, created.codes.length + 1)}
            value={created.codes.join('\n')}
            aria-label={L('redemptions.codes')}
          ></textarea>
          <sl-button slot="footer" data-action="copy-codes" onClick={() => onCopy(created.codes.join('\n'))}>
            {L('redemptions.copyAll')}
          </sl-button>
          {file && href && (
            <a slot="footer" className="tg-button tg-button--primary" href={href} download={file.fileName} data-action="download">
              <sl-icon name="download"></sl-icon>
              {L('redemptions.download', { file: file.fileName })}
            </a>
          )}
          <sl-button slot="footer" data-action="close-codes" onClick={onClose}>
            {t('common.close')}
          </sl-button>
        </>
      )}
    </sl-dialog>
  )
}
