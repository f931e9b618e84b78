import type { ReactNode } from 'react'
import type { ApiError } from '../api/errors.ts'
import { ErrorPanel } from './error-panel.tsx'
import '@shoelace-style/shoelace/dist/components/skeleton/skeleton.js'

export type Load<T> = { state: 'loading' } | { state: 'ready'; data: T; refreshing?: boolean } | { state: 'error'; error: ApiError | Error }

/** Renders exactly one of loading (skeleton), error (panel with Retry), empty, ready. */
export function LoadState<T>({
  load,
  children,
  empty,
  isEmpty,
  skeletonRows = 3,
  onRetry,
}: {
  load: Load<T>
  children: (data: T) => ReactNode
  empty?: ReactNode
  isEmpty?: (data: T) => boolean
  skeletonRows?: number
  onRetry?: () => void
}) {
  if (load.state === 'loading') return <Skeleton rows={skeletonRows} />
  if (load.state === 'error') return <ErrorPanel message={load.error.message} onRetry={onRetry} />
  if (empty !== undefined && isEmpty?.(load.data)) return <>{empty}</>
  return <>{children(load.data)}</>
}

/** The loading state: a few sheen lines, each shorter than the one before. */
export function Skeleton({ rows }: { rows: number }) {
  return (
    <div className="tg-skeleton" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <sl-skeleton key={i} effect="sheen" style={{ height: '1.25rem', marginBottom: '0.75rem', width: `${90 - i * 12}%` }}></sl-skeleton>
      ))}
    </div>
  )
}

/**
 * A paged list's load state (the list screens' shared frame): the skeleton of five rows, the error
 * panel retrying with the list's reload, `empty` when there are no rows, else the rows.
 */
export function ListLoadState<T>({
  list,
  empty,
  children,
}: {
  list: { load: Load<T[]>; reload: () => unknown }
  empty: ReactNode
  children: (rows: T[]) => ReactNode
}) {
  return (
    <LoadState load={list.load} onRetry={list.reload} skeletonRows={5} isEmpty={(rows) => rows.length === 0} empty={empty}>
      {children}
    </LoadState>
  )
}
