import { useCallback, useEffect, useRef, useState } from 'react'
import type { Load } from './load-state.tsx'

export interface PagedList<T> {
  load: Load<T[]>
  /** the last page loaded was full, so another may follow (spec section 9) */
  hasMore: boolean
  loadingMore: boolean
  /** appends the next page */
  more: () => void
  /** loads page 0 again, keeping the rows on screen until it answers */
  reload: () => void
}

/**
 * A list loaded page by page from p = 0 and appended (spec section 9). It starts again whenever
 * `key` changes (new filters, another page size); answers to superseded requests are dropped.
 */
export function usePagedList<T>(fetchPage: (p: number) => Promise<T[]>, pageSize: number, key: string): PagedList<T> {
  const [load, setLoad] = useState<Load<T[]>>({ state: 'loading' })
  const [page, setPage] = useState(0)
  const [hasMore, setHasMore] = useState(false)
  const [loadingMore, setLoadingMore] = useState(false)
  const request = useRef(0)
  const fetcher = useRef(fetchPage)
  fetcher.current = fetchPage

  const first = useCallback(
    (keepRows: boolean) => {
      const id = ++request.current
      setLoadingMore(false)
      setLoad((old) => (keepRows && old.state === 'ready' ? { ...old, refreshing: true } : { state: 'loading' }))
      fetcher
        .current(0)
        .then((rows) => {
          if (id !== request.current) return
          setLoad({ state: 'ready', data: rows })
          setPage(0)
          setHasMore(rows.length >= pageSize)
        })
        .catch((error: Error) => {
          if (id === request.current) setLoad({ state: 'error', error })
        })
    },
    [pageSize],
  )

  useEffect(() => first(false), [first, key])

  const more = useCallback(() => {
    if (load.state !== 'ready' || loadingMore) return
    const id = request.current
    const next = page + 1
    setLoadingMore(true)
    fetcher
      .current(next)
      .then((rows) => {
        if (id !== request.current) return
        setLoad((old) => (old.state === 'ready' ? { state: 'ready', data: [...old.data, ...rows] } : old))
        setPage(next)
        setHasMore(rows.length >= pageSize)
      })
      .catch(() => {
        // the API client has shown the message; the rows already loaded stay
      })
      .finally(() => {
        if (id === request.current) setLoadingMore(false)
      })
  }, [load.state, loadingMore, page, pageSize])

  const reload = useCallback(() => first(true), [first])
  return { load, hasMore, loadingMore, more, reload }
}
