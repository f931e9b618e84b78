import { useCallback, useEffect, useRef, useState } from 'react'
import * as tokensApi from '../../api/tokens.ts'
import type { Token } from '../../api/types.ts'
import type { Load } from '../../ui/load-state.tsx'

export interface TokenList {
  load: Load<Token[]>
  /** the last loaded page was full: another page may follow */
  hasMore: boolean
  loadingMore: boolean
  /** the list shows search results (no paging) */
  searching: boolean
  loadMore: () => Promise<void>
  /** back to the first page (leaves search mode) */
  reload: () => Promise<void>
  search: (keyword: string, token: string) => Promise<void>
  replace: (token: Token) => void
  drop: (id: number) => void
}

/**
 * My tokens, page by page (p from 0) and appended (spec section 9), or the results of a search.
 * A late answer of an older request never overwrites a newer one.
 */
export function useTokenList(pageSize: number): TokenList {
  const [load, setLoad] = useState<Load<Token[]>>({ state: 'loading' })
  const [pages, setPages] = useState(0)
  const [hasMore, setHasMore] = useState(false)
  const [loadingMore, setLoadingMore] = useState(false)
  const [searching, setSearching] = useState(false)
  const generation = useRef(0)

  const reload = useCallback(async () => {
    const gen = ++generation.current
    setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
    try {
      const rows = await tokensApi.list(0, pageSize)
      if (gen !== generation.current) return
      setLoad({ state: 'ready', data: rows })
      setPages(1)
      setHasMore(rows.length === pageSize)
      setSearching(false)
    } catch (error) {
      if (gen === generation.current) setLoad({ state: 'error', error: error as Error })
    }
  }, [pageSize])

  useEffect(() => {
    void reload()
  }, [reload])

  const loadMore = useCallback(async () => {
    if (load.state !== 'ready' || searching) return
    const gen = generation.current
    setLoadingMore(true)
    try {
      const rows = await tokensApi.list(pages, pageSize)
      if (gen !== generation.current) return
      setLoad((l) => {
        if (l.state !== 'ready') return l
        const seen = new Set(l.data.map((t) => t.id))
        return { state: 'ready', data: [...l.data, ...rows.filter((t) => !seen.has(t.id))] }
      })
      setPages((p) => p + 1)
      setHasMore(rows.length === pageSize)
    } catch {
      // the list stays as it was; the button can be pressed again (the error panel is for the first page)
    } finally {
      setLoadingMore(false)
    }
  }, [load.state, searching, pages, pageSize])

  const search = useCallback(
    async (keyword: string, token: string) => {
      const k = keyword.trim()
      const key = token.trim()
      if (!k && !key) return reload()
      const gen = ++generation.current
      setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
      try {
        const rows = await tokensApi.search(k, key)
        if (gen !== generation.current) return
        setLoad({ state: 'ready', data: rows })
        setHasMore(false)
        setSearching(true)
      } catch (error) {
        // the client showed the message; keep what was listed
        if (gen === generation.current)
          setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: false } : { state: 'error', error: error as Error }))
      }
    },
    [reload],
  )

  const replace = useCallback((token: Token) => {
    setLoad((l) => (l.state === 'ready' ? { ...l, data: l.data.map((t) => (t.id === token.id ? token : t)) } : l))
  }, [])

  const drop = useCallback((id: number) => {
    setLoad((l) => (l.state === 'ready' ? { ...l, data: l.data.filter((t) => t.id !== id) } : l))
  }, [])

  return { load, hasMore, loadingMore, searching, loadMore, reload, search, replace, drop }
}
