import { useState, type FormEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import * as redemptionsApi from '../../api/redemptions.ts'
import type { Redemption } from '../../api/types.ts'
import { toast } from '../../stores/toasts.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { AdminSearch } from '../../ui/admin-search.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { useRowSelection } from '../../ui/row-selection.tsx'
import { AdminGate, LoadMore, useConfirm, usePagedList } from '../channels/admin-list.tsx'
import { useLabels } from '../channels/admin-labels.ts'
import { CreatedCodesDialog, RedemptionDrawer } from './redemption-drawer.tsx'
import { RedemptionsTable, type RedemptionActions } from './redemptions-table.tsx'
import adminCss from '../channels/admin.css?inline'
import { REDEMPTION_STATUS } from '../../../domain/statuses.ts'

/** The code list comes 10 per call (spec section 7). */
const PAGE = 10

/** Redemption codes (/redemption), for administrators. */
export function RedemptionsScreen() {
  return (
    <div className="tg-admin" data-screen="redemptions">
      <style>{adminCss}</style>
      <AdminGate>
        <RedemptionsManager />
      </AdminGate>
    </div>
  )
}

function RedemptionsManager() {
  const t = useT()
  const L = useLabels()
  const list = usePagedList<Redemption>((p) => redemptionsApi.list(p), PAGE)
  const { setRows, reload } = list
  const [keyword, setKeyword] = useState('')
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const [editing, setEditing] = useState<Redemption | 'new' | null>(null)
  const [created, setCreated] = useState<{ name: string; codes: string[] } | null>(null)
  const { confirm, dialog } = useConfirm()
  const { copy, fallback } = useCopy()
  const rows = list.load.state === 'ready' ? list.load.data : []
  const selection = useRowSelection(rows)
  const { selected } = selection

  async function withPending(tag: string, fn: () => Promise<void>) {
    setPending((p) => new Set(p).add(tag))
    try {
      await fn()
    } catch {
      // the API client has shown the server's message
    } finally {
      setPending((p) => {
        const next = new Set(p)
        next.delete(tag)
        return next
      })
    }
  }

  const replaceRow = (r: Redemption) => setRows((all) => all.map((x) => (x.id === r.id ? { ...x, ...r } : x)))

  const actions: RedemptionActions = {
    copy: (r) => void copy(r.key),
    toggle: (r) =>
      void withPending(`${r.id}:status`, async () => {
        replaceRow(
          await redemptionsApi.setStatus(
            r.id,
            r.status === REDEMPTION_STATUS.unused ? REDEMPTION_STATUS.disabled : REDEMPTION_STATUS.unused,
          ),
        )
        toast.success(t('admin.done'))
      }),
    edit: (r) => setEditing(r),
    remove: (r) =>
      void (async () => {
        const ok = await confirm({ title: L('redemptions.confirmDelete', { name: r.name }), confirmLabel: L('admin.delete'), danger: true })
        if (!ok) return
        await withPending(`${r.id}:delete`, async () => {
          await redemptionsApi.remove(r.id)
          setRows((all) => all.filter((x) => x.id !== r.id))
          selection.drop(r.id)
          toast.success(t('admin.done'))
        })
      })(),
  }

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
    if (!keyword.trim()) void reload()
    else void list.showSearch(() => redemptionsApi.search(keyword))
  }

  function onSaved(result: { created?: { name: string; codes: string[] }; updated?: Redemption }) {
    setEditing(null)
    if (result.updated) replaceRow(result.updated)
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
        actions={
          <sl-button variant="primary" data-action="add" onClick={() => setEditing('new')}>
            <sl-icon slot="prefix" name="plus-lg"></sl-icon>
            {L('redemptions.addTitle')}
          </sl-button>
        }
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
      <LoadState
        load={list.load}
        skeletonRows={5}
        onRetry={() => void reload()}
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState icon="ticket-perforated" title={list.searching ? L('redemptions.noMatch') : L('redemptions.empty')}>
            {list.searching ? L('admin.noMatchBody') : L('redemptions.emptyBody')}
          </EmptyState>
        }
      >
        {(data) => <RedemptionsTable rows={data} selection={selection} actions={actions} pending={pending} />}
      </LoadState>
      <div className="tg-admin__footer">
        <LoadMore list={list} />
      </div>
      <RedemptionDrawer editing={editing} onClose={() => setEditing(null)} onSaved={onSaved} />
      <CreatedCodesDialog created={created} onCopy={(text) => void copy(text)} onClose={() => setCreated(null)} />
      {dialog}
      {fallback}
    </>
  )
}
