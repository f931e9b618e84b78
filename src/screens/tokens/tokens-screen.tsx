import { useCallback, useMemo, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as tokensApi from '../../api/tokens.ts'
import type { Token } from '../../api/types.ts'
import { $session } from '../../stores/session.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { Link } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { TokenDrawer, type DrawerMode } from './token-drawer.tsx'
import { TokenQuickEdit } from './token-quick-edit.tsx'
import { TokensTable, type RowActions } from './tokens-table.tsx'
import { fullKey, selectedText } from './token-rules.ts'
import { toggleTarget } from '../../../domain/token-rules.ts'
import { useTokenList } from './use-token-list.ts'
import dataTableCss from '../../ui/data-table.css?inline'
import tokensCss from './tokens.css?inline'

const valueOf = (e: Event) => (e.target as HTMLInputElement).value

/** My tokens (/token): list, search, copy, the create/edit drawer, the inline edit and the row actions. */
export function TokensScreen() {
  const t = useT()
  const user = useStore($session)
  return (
    <div className="tg-screen tg-tokens" data-screen="tokens">
      <style>{dataTableCss + tokensCss}</style>
      {user ? (
        <TokensView />
      ) : (
        <EmptyState
          icon="key"
          title={t('token.signedOutTitle')}
          action={
            <Link to="/login" className="tg-button tg-button--primary">
              {t('top.login')}
            </Link>
          }
        >
          {t('token.signedOutBody')}
        </EmptyState>
      )}
    </div>
  )
}

function TokensView() {
  const t = useT()
  const { 'token-page-size': pageSize } = useStore($prefs, { keys: ['token-page-size'] })
  const list = useTokenList(pageSize || PAGE_SIZES[0])
  const { copy, fallback } = useCopy()
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [drawer, setDrawer] = useState<DrawerMode | null>(null)
  const [quickEditId, setQuickEditId] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<Token | null>(null)
  const [busyDelete, setBusyDelete] = useState(false)
  const [keyword, setKeyword] = useState('')
  const [keySearch, setKeySearch] = useState('')
  const tokens = list.load.state === 'ready' ? list.load.data : []

  const closeDrawer = useCallback(() => setDrawer(null), [])
  const { reload, replace } = list
  const onCreated = useCallback(() => {
    setSelected(new Set())
    void reload()
  }, [reload])

  const select = (ids: number[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      for (const id of ids) {
        if (on) next.add(id)
        else next.delete(id)
      }
      return next
    })

  const actions: RowActions = useMemo(
    () => ({
      copy: (token) => void copy(fullKey(token)),
      toggle: async (token) => {
        try {
          const status = await tokensApi.setStatus(token.id, toggleTarget(token.status).next)
          replace({ ...token, status })
          toast.success(t('token.done'))
        } catch {
          // the client showed the server's reason (an expired or used-up token cannot be enabled)
        }
      },
      edit: (token) => setDrawer({ kind: 'edit', id: token.id }),
      quickEdit: (token) => setQuickEditId((id) => (id === token.id ? null : token.id)),
      remove: (token) => setDeleting(token),
    }),
    [copy, replace, t],
  )

  function copySelected() {
    const chosen = tokens.filter((tk) => selected.has(tk.id))
    if (chosen.length === 0) {
      toast.error(t('token.selectAtLeastOne'))
      return
    }
    void copy(selectedText(chosen))
  }

  function search(e: FormEvent) {
    e.preventDefault()
    setSelected(new Set())
    setQuickEditId(null)
    void list.search(keyword, keySearch)
  }

  async function confirmDelete() {
    if (!deleting) return
    setBusyDelete(true)
    try {
      await tokensApi.remove(deleting.id)
      list.drop(deleting.id)
      select([deleting.id], false)
      toast.success(t('token.done'))
      setDeleting(null)
    } catch {
      // the client showed the server's message
    } finally {
      setBusyDelete(false)
    }
  }

  return (
    <>
      <PageHeader
        title={t('nav.token')}
        description={t('token.description')}
        actions={
          <sl-button
            variant="primary"
            data-action="create"
            part="create-button"
            exportparts="base:create-button__base"
            onClick={() => setDrawer({ kind: 'create' })}
          >
            <sl-icon slot="prefix" name="plus-lg"></sl-icon>
            {t('token.createTitle')}
          </sl-button>
        }
      />

      <div className="tg-toolbar">
        <form className="tg-toolbar__search" role="search" onSubmit={search} noValidate>
          <sl-input
            name="keyword"
            size="small"
            clearable
            placeholder={t('token.searchName')}
            aria-label={t('token.searchName')}
            value={keyword}
            onsl-input={(e: Event) => setKeyword(valueOf(e))}
            onsl-clear={() => setKeyword('')}
          >
            <sl-icon slot="prefix" name="search"></sl-icon>
          </sl-input>
          <sl-input
            name="token"
            size="small"
            clearable
            placeholder={t('token.searchKey')}
            aria-label={t('token.searchKey')}
            value={keySearch}
            onsl-input={(e: Event) => setKeySearch(valueOf(e))}
            onsl-clear={() => setKeySearch('')}
          ></sl-input>
          <sl-button size="small" type="submit" data-action="search">
            {t('token.search')}
          </sl-button>
        </form>
        <div className="tg-toolbar__end">
          <sl-button size="small" data-action="copy-selected" onClick={copySelected}>
            <sl-icon slot="prefix" name="clipboard"></sl-icon>
            {t('token.copySelected')}
            {selected.size > 0 && ` (${selected.size})`}
          </sl-button>
          <sl-select
            name="page_size"
            size="small"
            className="tg-page-size"
            aria-label={t('token.pageSize')}
            value={String(pageSize)}
            onsl-change={(e: Event) => $prefs.setKey('token-page-size', Number(valueOf(e)) || PAGE_SIZES[0])}
          >
            {PAGE_SIZES.map((n) => (
              <sl-option key={n} value={String(n)}>
                {t('token.perPage', { n })}
              </sl-option>
            ))}
          </sl-select>
        </div>
      </div>

      <LoadState
        load={list.load}
        onRetry={list.reload}
        skeletonRows={5}
        isEmpty={(rows) => rows.length === 0}
        empty={
          list.searching ? (
            <EmptyState
              icon="search"
              title={t('token.noMatch')}
              action={<sl-button onClick={() => void list.reload()}>{t('token.showAll')}</sl-button>}
            />
          ) : (
            <EmptyState
              icon="key"
              title={t('token.emptyTitle')}
              action={
                <sl-button variant="primary" onClick={() => setDrawer({ kind: 'create' })}>
                  {t('token.createTitle')}
                </sl-button>
              }
            >
              {t('token.emptyBody')}
            </EmptyState>
          )
        }
      >
        {(rows) => (
          <div className="tg-table-wrap" aria-busy={list.load.state === 'ready' && !!list.load.refreshing}>
            <TokensTable
              tokens={rows}
              selected={selected}
              onSelect={select}
              actions={actions}
              quickEditId={quickEditId}
              renderQuickEdit={(token) => (
                <TokenQuickEdit
                  token={token}
                  onCancel={() => setQuickEditId(null)}
                  onDone={(updated) => {
                    list.replace(updated)
                    setQuickEditId(null)
                  }}
                />
              )}
            />
            <div className="tg-list-footer">
              <span className="tg-muted">
                {list.searching ? t('token.searchCount', { n: rows.length }) : t('token.loadedCount', { n: rows.length })}
              </span>
              {list.hasMore && !list.searching && (
                <sl-button size="small" data-action="load-more" loading={list.loadingMore} onClick={() => void list.loadMore()}>
                  {t('token.loadMore')}
                </sl-button>
              )}
              {list.searching && (
                <sl-button size="small" variant="text" onClick={() => void list.reload()}>
                  {t('token.showAll')}
                </sl-button>
              )}
            </div>
          </div>
        )}
      </LoadState>

      <TokenDrawer mode={drawer} onClose={closeDrawer} onCreated={onCreated} onUpdated={list.replace} />

      <sl-dialog
        label={t('token.deleteTitle')}
        open={deleting !== null}
        data-testid="delete-dialog"
        onsl-after-hide={(e: Event) => e.target === e.currentTarget && setDeleting(null)}
      >
        {deleting && <p>{t('token.deleteBody', { name: deleting.name })}</p>}
        <sl-button slot="footer" onClick={() => setDeleting(null)}>
          {t('common.cancel')}
        </sl-button>
        <sl-button slot="footer" variant="danger" loading={busyDelete} data-action="confirm-delete" onClick={confirmDelete}>
          {t('token.delete')}
        </sl-button>
      </sl-dialog>
      {fallback}
    </>
  )
}
