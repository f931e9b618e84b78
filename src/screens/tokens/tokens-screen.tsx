import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import type { Token } from '../../api/types.ts'
import { $session } from '../../stores/session.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import { useCopy } from '../../ui/copy-to-clipboard.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { ListLoadState } from '../../ui/load-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { TokenDrawer, type DrawerMode } from './token-drawer.tsx'
import { TokenQuickEdit } from './token-quick-edit.tsx'
import { TokensTable, type RowActions } from './tokens-table.tsx'
import { TokensToolbar } from './tokens-toolbar.tsx'
import { fullKey, selectedText } from './token-rules.ts'
import { usePagedList, type PagedListView } from '../../stores/paged-list.ts'
import { removeToken, searchTokens, toggleToken, tokenList } from '../../stores/tokens.ts'
import dataTableCss from '../../ui/data-table.css?inline'
import tokensCss from './tokens.css?inline'
import { SignInNotice } from '../../ui/sign-in-notice.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../../ui/icons/key.ts'
import '../../ui/icons/plus-lg.ts'
import '../../ui/icons/search.ts'
import '../../i18n/en/tokens.ts'

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
  const { 'token-page-size': pageSize } = useStore($prefs, { keys: ['token-page-size'] })
  const list = usePagedList(tokenList, listConfig(pageSize))
  const { copy, fallback } = useCopy()
  const { selected, select, clear } = useTokenSelection()
  const [drawer, setDrawer] = useState<DrawerMode | null>(null)
  const [quickEditId, setQuickEditId] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<Token | null>(null)
  const tokens = list.load.state === 'ready' ? list.load.data : []
  const closeDrawer = useCallback(() => setDrawer(null), [])
  const openCreate = () => setDrawer({ kind: 'create' })

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

  function search(keyword: string, key: string) {
    clear()
    setQuickEditId(null)
    void searchTokens(keyword, key)
  }

  return (
    <>
      <TokensHeader onCreate={openCreate} />
      <TokensToolbar pageSize={pageSize} selectedCount={selected.size} onSearch={search} onCopySelected={copySelected} />
      <TokensList list={list} onCreate={openCreate}>
        {(rows) => (
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
        )}
      </TokensList>
      <TokenDrawer mode={drawer} onClose={closeDrawer} onCreated={clear} />
      <DeleteTokenDialog token={deleting} onClose={() => setDeleting(null)} onDeleted={(id) => select([id], false)} />
      {fallback}
    </>
  )
}

/** The tokens ticked in the list, by id: ticking adds or removes only the ids given. */
function useTokenSelection() {
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const select = (ids: number[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      for (const id of ids) {
        if (on) next.add(id)
        else next.delete(id)
      }
      return next
    })
  const clear = useCallback(() => setSelected(new Set()), [])
  return { selected, select, clear }
}

/** The title, the description and the create button. */
function TokensHeader({ onCreate }: { onCreate: () => void }) {
  const t = useT()
  return (
    <PageHeader
      title={t('nav.token')}
      description={t('token.description')}
      actions={
        <sl-button variant="primary" data-action="create" part="create-button" exportparts="base:create-button__base" onClick={onCreate}>
          <sl-icon slot="prefix" name="plus-lg"></sl-icon>
          {t('token.createTitle')}
        </sl-button>
      }
    />
  )
}

/**
 * The list as it loads: skeleton, error, the empty state (of the search or of the account), or the
 * table (`children`) with how many are shown, "load more" and "show all" after a search.
 */
function TokensList({
  list,
  onCreate,
  children,
}: {
  list: PagedListView<Token, unknown>
  onCreate: () => void
  children: (rows: Token[]) => ReactNode
}) {
  const t = useT()
  return (
    <ListLoadState
      list={list}
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
              <sl-button variant="primary" onClick={onCreate}>
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
          {children(rows)}
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
    </ListLoadState>
  )
}

/** Asks before deleting a token; `onDeleted` once the server has removed it, then it closes. */
function DeleteTokenDialog({ token, onClose, onDeleted }: { token: Token | null; onClose: () => void; onDeleted: (id: number) => void }) {
  const t = useT()
  const [busy, setBusy] = useState(false)

  async function confirm() {
    if (!token) return
    setBusy(true)
    try {
      await removeToken(token.id)
      onDeleted(token.id)
      toast.success(t('token.done'))
      onClose()
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false)
    }
  }

  return (
    <sl-dialog
      label={t('token.deleteTitle')}
      open={token !== null}
      data-testid="delete-dialog"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}
    >
      {token && <p>{t('token.deleteBody', { name: token.name })}</p>}
      <sl-button slot="footer" onClick={onClose}>
        {t('common.cancel')}
      </sl-button>
      <sl-button slot="footer" variant="danger" loading={busy} data-action="confirm-delete" onClick={confirm}>
        {t('token.delete')}
      </sl-button>
    </sl-dialog>
  )
}
