import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as usersApi from '../../api/users.ts'
import type { User } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { useLoad } from '../../ui/use-load.ts'
import { formatQuota } from '../../ui/format.ts'
import { AdminDrawer, DrawerActions, useSave } from '../../ui/admin/drawer.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { addQuota, formFromUser, newUserBody, userChanges, type UserForm } from './user-rules.ts'
import { setField, valueOf } from '../../ui/events.ts'
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

/** The add drawer (/user/add, /user/edit) and the edit drawer (/user/edit/{id}). */
export function UserDrawer({ editing, groups, onClose, onSaved }: UserDrawerProps) {
  const t = useT()
  return (
    <AdminDrawer name="user" editing={editing} addLabel={t('nav.userAdd')} editLabel={t('nav.userEdit')} onClose={onClose}>
      {(shown) =>
        shown === 'new' ? (
          <AddUserForm key="new" onClose={onClose} onSaved={onSaved} />
        ) : (
          <EditUser key={shown} id={shown} groups={groups} onClose={onClose} onSaved={onSaved} />
        )
      }
    </AdminDrawer>
  )
}

function AddUserForm({ onClose, onSaved }: Pick<UserDrawerProps, 'onClose' | 'onSaved'>) {
  const t = useT()
  const L = useLabels()
  const [form, setForm] = useState({ username: '', display_name: '', password: '' })
  const { message, busy, submit } = useSave(
    () => newUserBody(form),
    async (body) => {
      const created = await usersApi.create(body)
      toast.success(t('users.created'))
      onSaved({ created })
    },
  )
  return (
    <form className="tg-admin__form" onSubmit={submit} noValidate data-form="user-add">
      <IdentityFields adding form={form} setForm={setForm} />
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}

type Identity = Pick<UserForm, 'username' | 'display_name' | 'password'>

/** Username, display name and password: both required when adding; when editing an empty password keeps the old one. */
function IdentityFields<F extends Identity>({
  adding = false,
  form,
  setForm,
}: {
  adding?: boolean
  form: F
  setForm: (change: (f: F) => F) => void
}) {
  const t = useT()
  const L = useLabels()
  const set = (key: keyof Identity) => setField(setForm, key)
  return (
    <>
      <sl-input
        label={t('field.username')}
        name="username"
        required={adding}
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
        required={adding}
        autocomplete="new-password"
        placeholder={adding ? L('users.placeholder.newPassword') : L('users.placeholder.password')}
        value={form.password}
        onsl-input={set('password')}
      ></sl-input>
    </>
  )
}

function EditUser({ id, groups, onClose, onSaved }: Omit<UserDrawerProps, 'editing'> & { id: number }) {
  const { load, retry } = useLoad(() => usersApi.one(id, true), id)
  return (
    <LoadState load={load} skeletonRows={5} onRetry={retry}>
      {(user) => <EditUserForm user={user} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </LoadState>
  )
}

function EditUserForm({ user, groups, onClose, onSaved }: Pick<UserDrawerProps, 'groups' | 'onClose' | 'onSaved'> & { user: User }) {
  const t = useT()
  const L = useLabels()
  const [form, setForm] = useState<UserForm>(() => formFromUser(user))
  const { message, busy, submit } = useSave(
    () => userChanges(user.id, form),
    async (body) => {
      const updated = await usersApi.update(body)
      toast.success(t('users.updated'))
      onSaved({ updated })
    },
  )
  const groupOptions = [...new Set([...groups, form.group].filter(Boolean))]

  return (
    <form className="tg-admin__form" onSubmit={submit} noValidate data-form="user-edit">
      <IdentityFields form={form} setForm={setForm} />
      <sl-select label={L('users.col.group')} name="group" hoist value={form.group} onsl-change={setField(setForm, 'group')}>
        {groupOptions.map((g) => (
          <sl-option key={g} value={g}>
            {g}
          </sl-option>
        ))}
      </sl-select>
      <QuotaFields quota={form.quota} onQuota={(change) => setForm((f) => ({ ...f, quota: change(f.quota) }))} />
      <Bindings user={user} />
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}

/** The quota as typed (with what it is worth in the site's currency) and an amount to add to it. */
function QuotaFields({ quota, onQuota }: { quota: string; onQuota: (change: (quota: string) => string) => void }) {
  const L = useLabels()
  const status = useStore($status)
  const [amount, setAmount] = useState('')
  const quotaNumber = parseInt(quota, 10)
  return (
    <>
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
        value={quota}
        onsl-input={(e: Event) => {
          const value = valueOf(e)
          onQuota(() => value)
        }}
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
            onQuota((q) => addQuota(q, amount))
            setAmount('')
          }}
        >
          {L('users.addQuota')}
        </sl-button>
      </div>
    </>
  )
}

/** The user's sign-in bindings, read only. */
function Bindings({ user }: { user: User }) {
  const L = useLabels()
  const bindings: Array<[string, string, string]> = [
    ['email', L('users.binding.email'), user.email],
    ['github_id', L('users.binding.github'), user.github_id],
    ['wechat_id', L('users.binding.wechat'), user.wechat_id],
    ['telegram_id', L('users.binding.telegram'), user.telegram_id],
  ]
  return (
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
  )
}
