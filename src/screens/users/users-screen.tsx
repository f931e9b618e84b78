import { useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { loadGroups, manageUser, searchUsers, userList, type ManageAction } from '../../stores/users.ts'
import { usePagedList } from '../../stores/paged-list.ts'
import type { User } from '../../api/types.ts'
import { $isAdmin, $session } from '../../stores/session.ts'
import { toast } from '../../stores/toasts.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { AdminSearch } from '../../ui/admin/search.tsx'
import { AddButton, AdminRows, AdminScreen, useConfirm, usePending } from '../../ui/admin/list.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { UserDrawer, type UserEditing } from './user-drawer.tsx'
import { UserInfoDialog } from './user-info-dialog.tsx'
import { UsersTable, type UserActions } from './users-table.tsx'
import usersCss from './users.css?inline'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '../../ui/icons/people.ts'
import '../../ui/icons/person-plus.ts'
import '../../i18n/en/users.ts'

interface UsersScreenProps {
  /** the drawer the route asks for: a user id, 'new' (/user/add, /user/edit) or none (/user) */
  edit?: UserEditing | null
  /** the console's router drives the drawer; without it the drawer is local state */
  routed?: boolean
}

/** Starts an administrator's first page of users as soon as this screen's code arrives (see routes.tsx). */
export function prefetch(): void {
  if ($isAdmin.get()) userList.prime({})
}

/** User management (/user, /user/add, /user/edit/{id}), for administrators. */
export function UsersScreen(props: UsersScreenProps) {
  return (
    <AdminScreen name="users" css={usersCss}>
      <UsersManager {...props} />
    </AdminScreen>
  )
}

/** Acting on a user (a delete after a confirmation), with the action pending meanwhile. */
function useManage() {
  const t = useT()
  const L = useLabels()
  const { pending, withPending } = usePending()
  const { confirm, dialog } = useConfirm()

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
    await withPending(`${u.id}:${action}`, async () => {
      await manageUser(u, action)
      toast.success(t('users.done'))
    })
  }
  return { manage, pending, dialog }
}

/** The drawer's user: in the address (/user/add, /user/edit/{id}) when the console routes the page, else local state. */
function useUserEditor(edit: UserEditing | null, routed: boolean) {
  const navigate = useNavigate()
  const [localEdit, setLocalEdit] = useState<UserEditing | null>(null)
  const openEditor = (target: UserEditing) =>
    routed ? navigate(target === 'new' ? '/user/add' : `/user/edit/${target}`) : setLocalEdit(target)
  const closeEditor = () => (routed ? navigate('/user') : setLocalEdit(null))
  return { editing: routed ? edit : localEdit, openEditor, closeEditor }
}

function UsersManager({ edit = null, routed = false }: UsersScreenProps) {
  const t = useT()
  const L = useLabels()
  const me = useStore($session)!
  const list = usePagedList(userList)
  const { reload } = list
  const [keyword, setKeyword] = useState('')
  const [group, setGroup] = useState('')
  const [groups, setGroups] = useState<string[]>([])
  const { manage, pending, dialog } = useManage()
  const { editing, openEditor, closeEditor } = useUserEditor(edit, routed)
  const [info, setInfo] = useState<User | null>(null)

  useEffect(() => {
    void loadGroups().then(setGroups)
  }, [])

  const actions: UserActions = {
    info: (u) => setInfo(u),
    edit: (u) => openEditor(u.id),
    manage: (u, action) => void manage(u, action),
  }

  function search(e: FormEvent) {
    e.preventDefault()
    void searchUsers(keyword, group)
  }

  function onSaved(result: { created?: User; updated?: User }) {
    if (result.updated) list.replace(result.updated)
    closeEditor()
    if (result.created) void reload()
  }

  return (
    <>
      <PageHeader
        title={t('nav.user')}
        description={L('users.description')}
        actions={<AddButton icon="person-plus" label={t('nav.userAdd')} onClick={() => openEditor('new')} />}
      />
      <AdminSearch
        keyword={keyword}
        onKeyword={setKeyword}
        keywordLabel={L('users.search.keyword')}
        searchLabel={L('admin.search')}
        onSubmit={search}
      >
        <sl-select
          className="tg-inline-label"
          name="group"
          size="small"
          clearable
          hoist
          placeholder={L('users.search.group')}
          label={L('users.search.group')}
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
      <AdminRows list={list} icon="people" empty={null} noMatch={L('users.noMatch')}>
        {(data) => <UsersTable rows={data} me={me} actions={actions} pending={pending} />}
      </AdminRows>
      <UserDrawer editing={editing} groups={groups} onClose={closeEditor} onSaved={onSaved} />
      <UserInfoDialog user={info} viewerRole={me.role} onClose={() => setInfo(null)} />
      {dialog}
    </>
  )
}
