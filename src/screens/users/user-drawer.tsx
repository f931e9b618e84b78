import { useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as usersApi from '../../api/users.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { formatQuota } from '../../ui/format.ts'
import { AdminDrawer, DrawerActions } from '../../ui/admin/drawer.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { useLingering } from '../../ui/admin/list.tsx'
import { addQuota, formFromUser, newUserBody, userChanges, type UserForm } from './user-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '../../i18n/en/users.ts'

export type UserEditing = number | 'new'

interface UserDrawerProps {
  /** the user being edited, 'new' for the add form, null when closed */
  editing: UserEditing | null
  groups: readonly string[]
  onClose: () => void
  /** after a save the server confirmed */
  onSaved: (result: { created?: User; updated?: User }) => void
}

const valueOf = (e: Event) => (e.target as HTMLInputElement).value ?? ''

/** The add drawer (/user/add, /user/edit) and the edit drawer (/user/edit/{id}). */
export function UserDrawer({ editing, groups, onClose, onSaved }: UserDrawerProps) {
  const t = useT()
  const { shown, onAfterHide } = useLingering(editing)
  return (
    <AdminDrawer
      name="user"
      label={shown === 'new' ? t('nav.userAdd') : t('nav.userEdit')}
      open={editing !== null}
      onClose={onClose}
      onAfterHide={onAfterHide}
    >
      {shown === 'new' && <AddUserForm key="new" onClose={onClose} onSaved={onSaved} />}
      {typeof shown === 'number' && <EditUser key={shown} id={shown} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </AdminDrawer>
  )
}

function AddUserForm({ onClose, onSaved }: Pick<UserDrawerProps, 'onClose' | 'onSaved'>) {
  const t = useT()
  const L = useLabels()
  const [form, setForm] = useState({ username: '', display_name: '', password: '' })
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (key: keyof typeof form) => (e: Event) => {
    const value = valueOf(e)
    setForm((f) => ({ ...f, [key]: value }))
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const result = newUserBody(form)
    if ('problem' in result) {
      setMessage(problemMessage(t, result.problem))
      return
    }
    setBusy(true)
    try {
      const created = await usersApi.create(result.body)
      toast.success(t('users.created'))
      onSaved({ created })
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="tg-admin__form" onSubmit={submit} noValidate data-form="user-add">
      <sl-input
        label={t('field.username')}
        name="username"
        required
        autocomplete="off"
        placeholder={t('placeholder.username')}
        value={form.username}
        onsl-input={set('username')}
      ></sl-input>
      <sl-input
        label={L('users.field.displayName')}
        name="display_name"
        autocomplete="off"
        placeholder={L('users.placeholder.displayName')}
        value={form.display_name}
        onsl-input={set('display_name')}
      ></sl-input>
      <sl-input
        label={t('field.password')}
        name="password"
        type="password"
        passwordToggle
        required
        autocomplete="new-password"
        placeholder={L('users.placeholder.newPassword')}
        value={form.password}
        onsl-input={set('password')}
      ></sl-input>
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}

function EditUser({ id, groups, onClose, onSaved }: Omit<UserDrawerProps, 'editing'> & { id: number }) {
  const [load, setLoad] = useState<Load<User>>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setLoad({ state: 'loading' })
    usersApi.one(id, true).then(
      (user) => live && setLoad({ state: 'ready', data: user }),
      (error: Error) => live && setLoad({ state: 'error', error }),
    )
    return () => {
      live = false
    }
  }, [id, attempt])
  return (
    <LoadState load={load} skeletonRows={5} onRetry={() => setAttempt((n) => n + 1)}>
      {(user) => <EditUserForm user={user} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </LoadState>
  )
}

function EditUserForm({ user, groups, onClose, onSaved }: Pick<UserDrawerProps, 'groups' | 'onClose' | 'onSaved'> & { user: User }) {
  const t = useT()
  const L = useLabels()
  const status = useStore($status)
  const [form, setForm] = useState<UserForm>(() => formFromUser(user))
  const [amount, setAmount] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const set = (key: keyof UserForm) => (e: Event) => {
    const value = valueOf(e)
    setForm((f) => ({ ...f, [key]: value }))
  }
  const groupOptions = [...new Set([...groups, form.group].filter(Boolean))]
  const quotaNumber = parseInt(form.quota, 10)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const result = userChanges(user.id, form)
    if ('problem' in result) {
      setMessage(problemMessage(t, result.problem))
      return
    }
    setBusy(true)
    try {
      const updated = await usersApi.update(result.body)
      toast.success(t('users.updated'))
      onSaved({ updated })
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  const bindings: Array<[string, string, string]> = [
    ['email', L('users.binding.email'), user.email],
    ['github_id', L('users.binding.github'), user.github_id],
    ['wechat_id', L('users.binding.wechat'), user.wechat_id],
    ['telegram_id', L('users.binding.telegram'), user.telegram_id],
  ]

  return (
    <form className="tg-admin__form" onSubmit={submit} noValidate data-form="user-edit">
      <sl-input
        label={t('field.username')}
        name="username"
        autocomplete="off"
        placeholder={t('placeholder.username')}
        value={form.username}
        onsl-input={set('username')}
      ></sl-input>
      <sl-input
        label={L('users.field.displayName')}
        name="display_name"
        autocomplete="off"
        placeholder={L('users.placeholder.displayName')}
        value={form.display_name}
        onsl-input={set('display_name')}
      ></sl-input>
      <sl-input
        label={t('field.password')}
        name="password"
        type="password"
        passwordToggle
        autocomplete="new-password"
        placeholder={L('users.placeholder.password')}
        value={form.password}
        onsl-input={set('password')}
      ></sl-input>
      <sl-select label={L('users.col.group')} name="group" hoist value={form.group} onsl-change={set('group')}>
        {groupOptions.map((g) => (
          <sl-option key={g} value={g}>
            {g}
          </sl-option>
        ))}
      </sl-select>
      <sl-input
        label={L('users.col.quota')}
        name="quota"
        type="number"
        step="1"
        help-text={
          Number.isNaN(quotaNumber)
            ? ''
            : L('users.quotaEquals', {
                amount: formatQuota(quotaNumber, { quota_per_unit: status?.quota_per_unit ?? 0, display_in_currency: true }),
              })
        }
        value={form.quota}
        onsl-input={set('quota')}
      ></sl-input>
      <div className="tg-users__add-quota">
        <sl-input
          label={L('users.field.addQuota')}
          name="add_quota"
          type="number"
          step="1"
          help-text={L('users.addQuotaHelp')}
          value={amount}
          onsl-input={(e: Event) => setAmount(valueOf(e))}
        ></sl-input>
        <sl-button
          data-action="add-quota"
          disabled={!amount.trim()}
          onClick={() => {
            setForm((f) => ({ ...f, quota: addQuota(f.quota, amount) }))
            setAmount('')
          }}
        >
          {L('users.addQuota')}
        </sl-button>
      </div>
      <fieldset className="tg-users__bindings" data-bindings="">
        <legend>{L('users.bindings')}</legend>
        {bindings.map(([name, label, value]) => (
          <sl-input
            key={name}
            label={label}
            name={name}
            size="small"
            readonly
            disabled
            value={value || ''}
            placeholder={L('users.notBound')}
          ></sl-input>
        ))}
      </fieldset>
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}
