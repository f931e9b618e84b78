import { useCallback, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { $session } from '../../stores/session.ts'
import { isAdmin } from '../../../domain/roles.ts'
import type { PagedListState, PagedListView } from '../../stores/paged-list.ts'
import { LoadState } from '../load-state.tsx'
import adminCss from './admin.css?inline'
import { EmptyState } from '../empty-state.tsx'
import { Link } from '../navigation.tsx'
import { useLabels } from './labels.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../icons/shield-lock.ts'

/**
 * Shared parts of the administrator lists (channels, users, redemption codes): "load more", the
 * actions in progress, the confirm dialog, and the role gate. Their rows
 * live in stores (src/stores/paged-list.ts).
 */

/** The "load more" button under a list. */
export function LoadMore({
  list,
}: {
  list: Pick<PagedListState<unknown, unknown>, 'hasMore' | 'loadingMore' | 'searching'> & { loadMore: () => void }
}) {
  const L = useLabels()
  if (!list.hasMore || list.searching) return null
  return (
    <div className="tg-admin__more">
      <sl-button data-action="load-more" loading={list.loadingMore} onClick={() => void list.loadMore()}>
        {L('admin.loadMore')}
      </sl-button>
    </div>
  )
}

/**
 * The actions in progress, by tag (`${id}:${action}`, `all:${action}`): the buttons show them
 * busy. `withPending` runs one; its failure was already shown by the API client.
 */
export function usePending(): { pending: ReadonlySet<string>; withPending: (tag: string, run: () => Promise<void>) => Promise<void> } {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const withPending = useCallback(async (tag: string, run: () => Promise<void>) => {
    setPending((p) => new Set(p).add(tag))
    try {
      await run()
    } catch {
      // the API client has shown the server's message
    } finally {
      setPending((p) => {
        const next = new Set(p)
        next.delete(tag)
        return next
      })
    }
  }, [])
  return { pending, withPending }
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

/** The "add" button in an administrator screen's header. */
export function AddButton({ icon, label, onClick }: { icon: string; label: string; onClick: () => void }) {
  return (
    <sl-button variant="primary" data-action="add" onClick={onClick}>
      <sl-icon slot="prefix" name={icon}></sl-icon>
      {label}
    </sl-button>
  )
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

/** An administrator screen: the admin kit's styles, its own, and the role gate around the manager. */
export function AdminScreen({ name, css = '', children }: { name: string; css?: string; children: ReactNode }) {
  return (
    <div className="tg-admin" data-screen={name}>
      <style>{adminCss + css}</style>
      <AdminGate>{children}</AdminGate>
    </div>
  )
}

/**
 * The rows of an administrator list: skeleton, error with Retry, the empty state (another one for
 * a search that matched nothing), the table, and the footer with "load more" (plus `footer`).
 */
export function AdminRows<T>({
  list,
  icon,
  empty,
  noMatch,
  footer,
  children,
}: {
  list: PagedListView<T, unknown>
  icon: string
  /** title and body of the empty list; null shows the no-match state for an empty list too */
  empty: { title: string; body: string } | null
  noMatch: string
  footer?: ReactNode
  children: (rows: T[]) => ReactNode
}) {
  const L = useLabels()
  const shown = list.searching || !empty ? { title: noMatch, body: L('admin.noMatchBody') } : empty
  return (
    <>
      <LoadState
        load={list.load}
        skeletonRows={5}
        onRetry={() => void list.reload()}
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState icon={icon} title={shown.title}>
            {shown.body}
          </EmptyState>
        }
      >
        {children}
      </LoadState>
      <div className="tg-admin__footer">
        <LoadMore list={list} />
        {footer}
      </div>
    </>
  )
}
