import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as usersApi from '../../api/users.ts'
import type { ManageAction } from '../../api/users.ts'
import type { User } from '../../api/types.ts'
import { $session } from '../../stores/session.ts'
import { toast } from '../../stores/toasts.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { AdminSearch } from '../../ui/admin-search.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { AdminGate, LoadMore, useConfirm, usePagedList } from '../channels/admin-list.tsx'
import { useLabels } from '../channels/admin-labels.ts'
import { UserDrawer, type UserEditing } from './user-drawer.tsx'
import { UserInfoDialog } from './user-info-dialog.tsx'
import { UsersTable, type UserActions } from './users-table.tsx'
import adminCss from '../channels/admin.css?inline'
import usersCss from './users.css?inline'

/** The user list comes 10 per call (spec section 7). */
const PAGE = 10

export interface UsersScreenProps {
  /** the drawer the route asks for: a user id, 'new' (/user/add, /user/edit) or none (/user) */
  edit?: UserEditing | null
  /** the console's router drives the drawer; without it the drawer is local state */
  routed?: boolean
}

/** User management (/user, /user/add, /user/edit/{id}), for administrators. */
export function UsersScreen(props: UsersScreenProps) {
  return (
    <div className="tg-admin" data-screen="users">
      <style>{adminCss}</style>
      <style>{usersCss}</style>
      <AdminGate>
        <UsersManager {...props} />
      </AdminGate>
    </div>
  )
}

function UsersManager({ edit = null, routed = false }: UsersScreenProps) {
  const t = useT()
  const L = useLabels()
  const navigate = useNavigate()
  const me = useStore($session)!
  const list = usePagedList<User>((p) => usersApi.list(p), PAGE)
  const { setRows, reload } = list
  const [keyword, setKeyword] = useState('')
  const [group, setGroup] = useState('')
  const [groups, setGroups] = useState<string[]>([])
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const [localEdit, setLocalEdit] = useState<UserEditing | null>(null)
  const [info, setInfo] = useState<User | null>(null)
  const { confirm, dialog } = useConfirm()
  const editing = routed ? edit : localEdit

  useEffect(() => {
    usersApi.groups().then(setGroups, () => {})
  }, [])

  const openEditor = (target: UserEditing) =>
    routed ? navigate(target === 'new' ? '/user/add' : `/user/edit/${target}`) : setLocalEdit(target)
  const closeEditor = () => (routed ? navigate('/user') : setLocalEdit(null))
  const replaceRow = useCallback((u: User) => setRows((all) => all.map((r) => (r.id === u.id ? { ...r, ...u } : r))), [setRows])

  async function manage(u: User, action: ManageAction) {
    if (action === 'delete') {
      const ok = await confirm({
        title: L('users.confirmDelete', { name: u.username }),
        body: L('users.confirmDeleteBody'),
        confirmLabel: L('admin.delete'),
        danger: true,
      })
      if (!ok) return
    }
    const tag = `${u.id}:${action}`
    setPending((p) => new Set(p).add(tag))
    try {
      const next = await usersApi.manage(u.username, action)
      if (action === 'delete') setRows((all) => all.filter((r) => r.id !== u.id))
      else replaceRow({ ...u, status: next.status, role: next.role })
      toast.success(t('users.done'))
    } catch {
      // the API client has shown the server's message
    } finally {
      setPending((p) => {
        const rest = new Set(p)
        rest.delete(tag)
        return rest
      })
    }
  }

  const actions: UserActions = {
    info: (u) => setInfo(u),
    edit: (u) => openEditor(u.id),
    manage: (u, action) => void manage(u, action),
  }

  function search(e: FormEvent) {
    e.preventDefault()
    if (!keyword.trim() && !group) void reload()
    else void list.showSearch(() => usersApi.search(keyword, group))
  }

  function onSaved(result: { created?: User; updated?: User }) {
    if (result.updated) replaceRow(result.updated)
    closeEditor()
    if (result.created) void reload()
  }

  return (
    <>
      <PageHeader
        title={t('nav.user')}
        description={L('users.description')}
        actions={
          <sl-button variant="primary" data-action="add" onClick={() => openEditor('new')}>
            <sl-icon slot="prefix" name="person-plus"></sl-icon>
            {t('nav.userAdd')}
          </sl-button>
        }
      />
      <AdminSearch
        keyword={keyword}
        onKeyword={setKeyword}
        keywordLabel={L('users.search.keyword')}
        searchLabel={L('admin.search')}
        onSubmit={search}
      >
        <sl-select
          name="group"
          size="small"
          clearable
          hoist
          placeholder={L('users.search.group')}
          aria-label={L('users.search.group')}
          value={group}
          onsl-change={(e: Event) => setGroup((e.target as HTMLInputElement).value ?? '')}
        >
          {groups.map((g) => (
            <sl-option key={g} value={g}>
              {g}
            </sl-option>
          ))}
        </sl-select>
      </AdminSearch>
      <LoadState
        load={list.load}
        skeletonRows={5}
        onRetry={() => void reload()}
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState icon="people" title={L('users.noMatch')}>
            {L('admin.noMatchBody')}
          </EmptyState>
        }
      >
        {(data) => <UsersTable rows={data} me={me} actions={actions} pending={pending} />}
      </LoadState>
      <div className="tg-admin__footer">
        <LoadMore list={list} />
      </div>
      <UserDrawer editing={editing} groups={groups} onClose={closeEditor} onSaved={onSaved} />
      <UserInfoDialog user={info} onClose={() => setInfo(null)} />
      {dialog}
    </>
  )
}
