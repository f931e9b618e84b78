import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { $session } from '../../stores/session.ts'
import { isAdmin } from '../../../domain/roles.ts'
import type { Load } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Link } from '../../ui/navigation.tsx'
import { useLabels } from './admin-labels.ts'

/**
 * Shared parts of the administrator lists (channels, users, redemption codes): paged loading,
 * the confirm dialog and the role gate.
 */

export interface PagedList<T> {
  load: Load<T[]>
  /** the last loaded page was full: offer "load more" */
  hasMore: boolean
  loadingMore: boolean
  /** true while the rows are search results (no paging) */
  searching: boolean
  /** first page again (leaves search mode) */
  reload: () => Promise<void>
  loadMore: () => Promise<void>
  /** shows the results of a search instead of the pages */
  showSearch: (run: () => Promise<T[]>) => Promise<void>
  /** changes the loaded rows locally (after an action the server confirmed) */
  setRows: (change: (rows: T[]) => T[]) => void
}

/**
 * Lists load page by page from p=0 and append (spec section 9); "load more" is offered while the
 * last page came back full. A newer request makes the answer of an older one irrelevant.
 */
export function usePagedList<T>(fetchPage: (p: number) => Promise<T[]>, pageSize: number, resetKey: unknown = null): PagedList<T> {
  const [load, setLoad] = useState<Load<T[]>>({ state: 'loading' })
  const [page, setPage] = useState(0)
  const [hasMore, setHasMore] = useState(false)
  const [loadingMore, setLoadingMore] = useState(false)
  const [searching, setSearching] = useState(false)
  const generation = useRef(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage

  const reload = useCallback(async () => {
    const mine = ++generation.current
    setLoad((prev) => (prev.state === 'ready' ? { ...prev, refreshing: true } : { state: 'loading' }))
    try {
      const rows = await fetchRef.current(0)
      if (mine !== generation.current) return
      setLoad({ state: 'ready', data: rows })
      setPage(0)
      setHasMore(rows.length >= pageSize)
      setSearching(false)
    } catch (e) {
      if (mine !== generation.current) return
      setLoad({ state: 'error', error: e as Error })
    }
    // a new page size or sort order (resetKey) starts from the first page again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageSize, resetKey])

  const loadMore = useCallback(async () => {
    const mine = generation.current
    setLoadingMore(true)
    try {
      const rows = await fetchRef.current(page + 1)
      if (mine !== generation.current) return
      setLoad((prev) => ({ state: 'ready', data: [...(prev.state === 'ready' ? prev.data : []), ...rows] }))
      setPage(page + 1)
      setHasMore(rows.length >= pageSize)
    } catch {
      // the API client has told the user; the rows loaded so far stay
    } finally {
      setLoadingMore(false)
    }
  }, [page, pageSize])

  const showSearch = useCallback(async (run: () => Promise<T[]>) => {
    const mine = ++generation.current
    setLoad((prev) => (prev.state === 'ready' ? { ...prev, refreshing: true } : { state: 'loading' }))
    try {
      const rows = await run()
      if (mine !== generation.current) return
      setLoad({ state: 'ready', data: rows })
      setHasMore(false)
      setSearching(true)
    } catch (e) {
      if (mine !== generation.current) return
      setLoad({ state: 'error', error: e as Error })
    }
  }, [])

  const setRows = useCallback((change: (rows: T[]) => T[]) => {
    setLoad((prev) => (prev.state === 'ready' ? { ...prev, data: change(prev.data) } : prev))
  }, [])

  useEffect(() => {
    void reload()
  }, [reload])

  return { load, hasMore, loadingMore, searching, reload, loadMore, showSearch, setRows }
}

/** The "load more" button under a list. */
export function LoadMore({ list }: { list: Pick<PagedList<unknown>, 'hasMore' | 'loadingMore' | 'loadMore' | 'load'> }) {
  const L = useLabels()
  if (!list.hasMore || list.load.state !== 'ready') return null
  return (
    <div className="tg-admin__more">
      <sl-button data-action="load-more" loading={list.loadingMore} onClick={() => void list.loadMore()}>
        {L('admin.loadMore')}
      </sl-button>
    </div>
  )
}

interface ConfirmRequest {
  title: string
  body?: ReactNode
  confirmLabel: string
  danger?: boolean
  resolve: (ok: boolean) => void
}

/**
 * Asks before a destructive action. `confirm()` resolves true when the user confirms; render
 * `dialog` once in the screen.
 */
export function useConfirm(): { confirm: (req: Omit<ConfirmRequest, 'resolve'>) => Promise<boolean>; dialog: ReactNode } {
  const t = useT()
  const [request, setRequest] = useState<ConfirmRequest | null>(null)
  const [open, setOpen] = useState(false)
  const confirm = useCallback(
    (req: Omit<ConfirmRequest, 'resolve'>) =>
      new Promise<boolean>((resolve) => {
        setRequest({ ...req, resolve })
        setOpen(true)
      }),
    [],
  )
  const answer = (ok: boolean) => {
    request?.resolve(ok)
    setRequest((r) => (r ? { ...r, resolve: () => {} } : r))
    setOpen(false)
  }
  const dialog = (
    <sl-dialog
      label={request?.title ?? ''}
      open={open}
      data-confirm=""
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) answer(false)
      }}
      onsl-after-hide={(e: Event) => {
        if (e.target === e.currentTarget) setRequest(null)
      }}
    >
      {request?.body && <div className="tg-admin__confirm-body">{request.body}</div>}
      <sl-button slot="footer" data-action="cancel" onClick={() => answer(false)}>
        {t('common.cancel')}
      </sl-button>
      <sl-button slot="footer" data-action="confirm" variant={request?.danger ? 'danger' : 'primary'} onClick={() => answer(true)}>
        {request?.confirmLabel ?? ''}
      </sl-button>
    </sl-dialog>
  )
  return { confirm, dialog }
}

/** Shows the screen to administrators only: a sign-in link when signed out, a notice for lower roles. */
export function AdminGate({ children }: { children: ReactNode }) {
  const t = useT()
  const L = useLabels()
  const user = useStore($session)
  if (!user) {
    return (
      <div data-gate="signed-out">
        <EmptyState
          icon="shield-lock"
          title={L('admin.signIn')}
          action={
            <Link to="/login" className="tg-button tg-button--primary">
              {t('nav.login')}
            </Link>
          }
        />
      </div>
    )
  }
  if (!isAdmin(user.role)) {
    return (
      <div data-gate="forbidden">
        <EmptyState icon="shield-lock" title={t('forbidden.title')}>
          {t('forbidden.body')}
        </EmptyState>
      </div>
    )
  }
  return <>{children}</>
}

/**
 * What a drawer shows: the value it was opened with, kept while it slides out after closing (so
 * the form does not vanish mid-animation) and dropped once it is hidden.
 */
export function useLingering<T>(value: T | null): { shown: T | null; onAfterHide: (e: Event) => void } {
  const [shown, setShown] = useState<T | null>(value)
  const current = useRef(value)
  current.current = value
  if (value !== null && value !== shown) setShown(value)
  const onAfterHide = useCallback((e: Event) => {
    if (e.target === e.currentTarget && current.current === null) setShown(null)
  }, [])
  return { shown: value ?? shown, onAfterHide }
}
