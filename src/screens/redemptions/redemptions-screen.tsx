import { useState, type FormEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import { redemptionList, removeRedemption, searchRedemptions, toggleRedemption } from '../../stores/redemptions.ts'
import { usePagedList } from '../../stores/paged-list.ts'
import type { Redemption } from '../../api/types.ts'
import { toast } from '../../stores/toasts.ts'
import { $isAdmin } from '../../stores/session.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { AdminSearch } from '../../ui/admin/search.tsx'
import { useRowSelection } from '../../ui/admin/row-selection.tsx'
import { AddButton, AdminRows, AdminScreen, useConfirm, usePending } from '../../ui/admin/list.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { CreatedCodesDialog, RedemptionDrawer } from './redemption-drawer.tsx'
import { RedemptionsTable, type RedemptionActions } from './redemptions-table.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../../ui/icons/files.ts'
import '../../ui/icons/plus-lg.ts'
import '../../ui/icons/ticket-perforated.ts'
import '../../i18n/en/redemptions.ts'

/** Starts an administrator's first page of codes as soon as this screen's code arrives (see routes.tsx). */
export function prefetch(): void {
  if ($isAdmin.get()) redemptionList.prime({})
}

/** Redemption codes (/redemption), for administrators. */
export function RedemptionsScreen() {
  return (
    <AdminScreen name="redemptions">
      <RedemptionsManager />
    </AdminScreen>
  )
}

/** The row actions: copy, enable/disable, edit, delete (after a confirmation). */
function useRedemptionActions(
  copy: (text: string) => Promise<unknown>,
  setEditing: (r: Redemption) => void,
  drop: (id: number) => void,
): { actions: RedemptionActions; pending: ReturnType<typeof usePending>['pending']; dialog: ReturnType<typeof useConfirm>['dialog'] } {
  const t = useT()
  const L = useLabels()
  const { pending, withPending } = usePending()
  const { confirm, dialog } = useConfirm()
  const actions: RedemptionActions = {
    copy: (r) => void copy(r.key),
    toggle: (r) =>
      void withPending(`${r.id}:status`, async () => {
        await toggleRedemption(r)
        toast.success(t('admin.done'))
      }),
    edit: (r) => setEditing(r),
    remove: (r) =>
      void (async () => {
        const ok = await confirm({ title: L('redemptions.confirmDelete', { name: r.name }), confirmLabel: L('admin.delete'), danger: true })
        if (!ok) return
        await withPending(`${r.id}:delete`, async () => {
          await removeRedemption(r)
          drop(r.id)
          toast.success(t('admin.done'))
        })
      })(),
  }
  return { actions, pending, dialog }
}

function RedemptionsManager() {
  const t = useT()
  const L = useLabels()
  const list = usePagedList(redemptionList)
  const { reload } = list
  const [keyword, setKeyword] = useState('')
  const [editing, setEditing] = useState<Redemption | 'new' | null>(null)
  const [created, setCreated] = useState<{ name: string; codes: string[] } | null>(null)
  const { copy, fallback } = useCopy()
  const rows = list.load.state === 'ready' ? list.load.data : []
  const selection = useRowSelection(rows)
  const { selected } = selection
  const { actions, pending, dialog } = useRedemptionActions(copy, setEditing, selection.drop)

  function copySelected() {
    const keys = rows.filter((r) => selected.has(r.id)).map((r) => r.key)
    if (keys.length === 0) {
      toast.warning(t('redemptions.selectAtLeastOne'))
      return
    }
    void copy(keys.join('\n'))
  }

  function search(e: FormEvent) {
    e.preventDefault()
    selection.clear()
    void searchRedemptions(keyword)
  }

  function onSaved(result: { created?: { name: string; codes: string[] }; updated?: Redemption }) {
    setEditing(null)
    if (result.updated) list.replace(result.updated)
    if (result.created) {
      setCreated(result.created)
      void reload()
    }
  }

  return (
    <>
      <PageHeader
        title={t('nav.redemption')}
        description={L('redemptions.description')}
        actions={<AddButton icon="plus-lg" label={L('redemptions.addTitle')} onClick={() => setEditing('new')} />}
      />
      <AdminSearch
        keyword={keyword}
        onKeyword={setKeyword}
        keywordLabel={L('redemptions.search')}
        searchLabel={L('admin.search')}
        onSubmit={search}
      />
      <div className="tg-admin__toolbar" role="toolbar" aria-label={L('redemptions.tools')}>
        <sl-button size="small" data-action="copy-selected" onClick={copySelected}>
          <sl-icon slot="prefix" name="files"></sl-icon>
          {L('redemptions.copySelected', { n: selected.size })}
        </sl-button>
      </div>
      <AdminRows
        list={list}
        icon="ticket-perforated"
        empty={{ title: L('redemptions.empty'), body: L('redemptions.emptyBody') }}
        noMatch={L('redemptions.noMatch')}
      >
        {(data) => <RedemptionsTable rows={data} selection={selection} actions={actions} pending={pending} />}
      </AdminRows>
      <RedemptionDrawer editing={editing} onClose={() => setEditing(null)} onSaved={onSaved} />
      <CreatedCodesDialog created={created} onCopy={(text) => void copy(text)} onClose={() => setCreated(null)} />
      {dialog}
      {fallback}
    </>
  )
}
