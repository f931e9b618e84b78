import { useCallback, useMemo, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale, useT } from '../../i18n/t.ts'
import type { Token } from '../../api/types.ts'
import { $session } from '../../stores/session.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { TokenDrawer, type DrawerMode } from './token-drawer.tsx'
import { TokenQuickEdit } from './token-quick-edit.tsx'
import { TokensTable, type RowActions } from './tokens-table.tsx'
import { fullKey, selectedText } from './token-rules.ts'
import { usePagedList } from '../../stores/paged-list.ts'
import { removeToken, searchTokens, toggleToken, tokenList } from '../../stores/tokens.ts'
import dataTableCss from '../../ui/data-table.css?inline'
import tokensCss from './tokens.css?inline'
import { SignInNotice } from '../../ui/sign-in-notice.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '../../ui/icons/clipboard.ts'
import '../../ui/icons/key.ts'
import '../../ui/icons/plus-lg.ts'
import '../../ui/icons/search.ts'
import '../../i18n/en/tokens.ts'

const valueOf = (e: Event) => (e.target as HTMLInputElement).value

/** The list config of the tokens screen: the stored page size, no filters. */
const listConfig = (pageSize: number | undefined) => ({ pageSize: pageSize || PAGE_SIZES[0], filters: {} })

/** Starts the signed-in user's first page of tokens as soon as this screen's code arrives (see routes.tsx). */
export function prefetch(): void {
  if ($session.get()) tokenList.prime(listConfig($prefs.get()['token-page-size']))
}

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
        <SignInNotice icon="key" title={t('token.signedOutTitle')}>
          {t('token.signedOutBody')}
        </SignInNotice>
      )}
    </div>
  )
}

function TokensView() {
  const t = useT()
  const locale = useLocale()
  const { 'token-page-size': pageSize } = useStore($prefs, { keys: ['token-page-size'] })
  const list = usePagedList(tokenList, listConfig(pageSize))
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
  const onCreated = useCallback(() => setSelected(new Set()), [])

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
          await toggleToken(token)
          toast.success(t('token.done'))
        } catch {
          // the client showed the server's reason (an expired or used-up token cannot be enabled)
        }
      },
      edit: (token) => setDrawer({ kind: 'edit', id: token.id }),
      quickEdit: (token) => setQuickEditId((id) => (id === token.id ? null : token.id)),
      remove: (token) => setDeleting(token),
    }),
    [copy, t],
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
    void searchTokens(keyword, keySearch)
  }

  async function confirmDelete() {
    if (!deleting) return
    setBusyDelete(true)
    try {
      await removeToken(deleting.id)
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
            className="tg-sr-label"
            name="keyword"
            size="small"
            clearable
            placeholder={t('token.searchName')}
            label={t('token.searchName')}
            value={keyword}
            onsl-input={(e: Event) => setKeyword(valueOf(e))}
            onsl-clear={() => setKeyword('')}
          >
            <sl-icon slot="prefix" name="search"></sl-icon>
          </sl-input>
          <sl-input
            className="tg-sr-label"
            name="token"
            size="small"
            clearable
            placeholder={t('token.searchKey')}
            label={t('token.searchKey')}
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
          {/* keyed by the language: the select keeps the label it showed until its value changes */}
          <sl-select
            key={locale}
            name="page_size"
            size="small"
            className="tg-page-size tg-inline-label"
            label={t('token.pageSize')}
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
                <TokenQuickEdit token={token} onCancel={() => setQuickEditId(null)} onDone={() => setQuickEditId(null)} />
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

      <TokenDrawer mode={drawer} onClose={closeDrawer} onCreated={onCreated} />

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
