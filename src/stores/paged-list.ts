import { useEffect } from 'react'
import { useStore } from '@nanostores/react'
import { atom, type ReadableAtom, type WritableAtom } from 'nanostores'
import type { Load } from '../ui/load-state.tsx'

/**
 * A list the server gives page by page from p = 0, appended as the user asks for more (spec
 * section 9), held in a nanostore so that every element on the page showing the same resource
 * shares its rows: a change made through one shows in the others without a reload.
 */
export interface PagedListState<T, F> {
  items: T[]
  /** the rows loaded so far (the API tells no grand total: `hasMore` says whether a page may follow) */
  total: number
  /** the last page loaded (0 = the first) */
  page: number
  pageSize: number
  filters: F
  /** the first page is on its way and there is nothing to show yet */
  loading: boolean
  /** the first page is being loaded again while the rows stay on screen */
  refreshing: boolean
  loadingMore: boolean
  /** why the first page failed; null once a load succeeds */
  error: Error | null
  /** the last page was full, so another may follow */
  hasMore: boolean
  /** the rows are the results of a search (no paging) */
  searching: boolean
}

export interface PagedListConfig<F> {
  pageSize: number
  filters: F
}

/** What an element sets of a list: its page size and the filters it owns (the others stay). */
export interface PagedListSettings<F> {
  pageSize?: number
  /** filters the element follows: a change starts the list again */
  filters?: Partial<F>
  /** filters the first element starts the list with, then left to setFilter (a search form's defaults) */
  start?: Partial<F>
  /** false while the element shows no list (a visitor's sign-in notice): it neither starts nor loads it */
  enabled?: boolean
}

export interface PagedList<T, F> {
  readonly $state: ReadableAtom<PagedListState<T, F>>
  /** the first page again (leaves search mode); rows on screen stay until it answers */
  reload: () => Promise<void>
  /** appends the next page */
  loadMore: () => Promise<void>
  /** another page size or other filters start from the first page again; equal ones change nothing */
  configure: (config: PagedListSettings<F>) => void
  /** merges filters and loads the first page again (even when they did not change: the user asked) */
  setFilter: (patch: Partial<F>) => void
  /** shows the results of a search instead of the pages */
  showSearch: (run: () => Promise<T[]>) => Promise<void>
  /** changes the loaded rows locally, after an action the server confirmed */
  setItems: (change: (items: T[]) => T[]) => void
  /** merges a row the server sent back into the row of the same id */
  replace: (item: Partial<T>) => void
  /** drops the rows of these ids */
  remove: (...ids: unknown[]) => void
  /** an element starts showing the list: the first one (re)starts it with its config, or adopts a prime of the same config */
  attach: (config: PagedListSettings<F>) => () => void
  /**
   * Starts the first page before any element shows the list (as soon as a screen's code arrives,
   * rather than when React reveals it): an attach with the same config within a few seconds takes
   * this load over instead of asking again.
   */
  prime: (config: PagedListSettings<F>) => void
}

/** How long a primed load waits for its element. */
const PRIME_TTL_MS = 5000

export interface PagedListOptions<T, F> extends PagedListConfig<F> {
  fetchPage: (page: number, pageSize: number, filters: F) => Promise<T[]>
  /** what tells two rows apart */
  idOf: (item: Partial<T>) => unknown
  /** a later page drops the rows already listed (a row added meanwhile shifts the pages by one) */
  dedupe?: boolean
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function emptyState<T, F>(config: PagedListConfig<F>): PagedListState<T, F> {
  return {
    items: [],
    total: 0,
    page: 0,
    pageSize: config.pageSize,
    filters: config.filters,
    loading: true,
    refreshing: false,
    loadingMore: false,
    error: null,
    hasMore: false,
    searching: false,
  }
}

/** What the loaders of a list share: its state, its options and the request turn (a newer request makes an older answer irrelevant). */
interface Core<T, F> {
  $state: WritableAtom<PagedListState<T, F>>
  options: PagedListOptions<T, F>
  turn: { generation: number }
}

const patchOf =
  <T, F>($state: WritableAtom<PagedListState<T, F>>) =>
  (change: Partial<PagedListState<T, F>>) =>
    $state.set({ ...$state.get(), ...change })

/** Loads the first page (or the results of a search) in place of the rows. */
async function loadFirst<T, F>(core: Core<T, F>, run: (s: PagedListState<T, F>) => Promise<T[]>, searching: boolean): Promise<void> {
  const { $state, turn } = core
  const patch = patchOf($state)
  const mine = ++turn.generation
  const before = $state.get()
  const shown = !before.loading && !before.error
  patch(shown ? { refreshing: true, loadingMore: false } : { loading: true, error: null, loadingMore: false })
  try {
    const rows = await run($state.get())
    if (mine !== turn.generation) return
    const hasMore = !searching && rows.length >= $state.get().pageSize
    patch({ items: rows, total: rows.length, page: 0, loading: false, refreshing: false, error: null, searching, hasMore })
  } catch (e) {
    if (mine !== turn.generation) return
    // a failed search keeps what was listed (the client showed the message); a failed first page shows the error
    if (searching && shown) patch({ refreshing: false })
    else patch({ loading: false, refreshing: false, error: e as Error, items: [], total: 0 })
  }
}

/** Appends the next page. */
async function loadNext<T, F>({ $state, options, turn }: Core<T, F>): Promise<void> {
  const patch = patchOf($state)
  const s = $state.get()
  if (s.loading || s.loadingMore || s.searching || s.error) return
  const mine = turn.generation
  const next = s.page + 1
  patch({ loadingMore: true })
  try {
    const rows = await options.fetchPage(next, s.pageSize, s.filters)
    if (mine !== turn.generation) return
    const seen = new Set(options.dedupe ? $state.get().items.map(options.idOf) : [])
    const items = [...$state.get().items, ...rows.filter((r) => !seen.has(options.idOf(r)))]
    patch({ items, total: items.length, page: next, hasMore: rows.length >= s.pageSize, loadingMore: false })
  } catch {
    // the API client has told the user; the rows loaded so far stay and the button can be pressed again
    if (mine === turn.generation) patch({ loadingMore: false })
  }
}

export function createPagedList<T, F>(options: PagedListOptions<T, F>): PagedList<T, F> {
  const $state = atom<PagedListState<T, F>>(emptyState(options))
  const core: Core<T, F> = { $state, options, turn: { generation: 0 } }
  const patch = patchOf($state)
  const reload = () => loadFirst(core, (s) => options.fetchPage(0, s.pageSize, s.filters), false)
  const setItems = (change: (items: T[]) => T[]) => {
    const items = change($state.get().items)
    patch({ items, total: items.length })
  }
  let attached = 0
  let primed: { key: string; at: number } | null = null
  const startOf = (config: PagedListSettings<F>) => {
    const first = { pageSize: config.pageSize ?? options.pageSize, filters: { ...options.filters, ...config.start, ...config.filters } }
    return { first, key: JSON.stringify(first) }
  }
  const start = (config: PagedListSettings<F>) => {
    core.turn.generation++
    $state.set(emptyState(startOf(config).first))
    void reload()
  }

  return {
    $state,
    reload,
    loadMore: () => loadNext(core),
    configure: (config) => {
      const s = $state.get()
      const pageSize = config.pageSize ?? s.pageSize
      const filters = { ...s.filters, ...config.filters }
      if (pageSize === s.pageSize && same(filters, s.filters)) return
      patch({ pageSize, filters })
      void reload()
    },
    setFilter: (change) => {
      patch({ filters: { ...$state.get().filters, ...change } })
      void reload()
    },
    showSearch: (run) => loadFirst(core, run, true),
    setItems,
    replace: (item) => setItems((all) => all.map((r) => (options.idOf(r) === options.idOf(item) ? { ...r, ...item } : r))),
    remove: (...ids) => setItems((all) => all.filter((r) => !ids.includes(options.idOf(r)))),
    attach: (config) => {
      if (attached++ === 0) {
        // the first element to show the list starts it afresh (nothing of an earlier visit lingers),
        // unless the same start was primed a moment ago
        const fresh = primed && primed.key === startOf(config).key && Date.now() - primed.at < PRIME_TTL_MS
        primed = null
        if (!fresh) start(config)
      }
      return () => {
        attached--
      }
    },
    prime: (config) => {
      if (attached > 0) return
      start(config)
      primed = { key: startOf(config).key, at: Date.now() }
    },
  }
}

/** What a component reads and does with a list: its state, the state as LoadState reads it, and the actions. */
export interface PagedListView<T, F> extends PagedListState<T, F> {
  load: Load<T[]>
  reload: () => Promise<void>
  loadMore: () => Promise<void>
  showSearch: (run: () => Promise<T[]>) => Promise<void>
  setItems: (change: (items: T[]) => T[]) => void
  replace: (item: Partial<T>) => void
  remove: (...ids: unknown[]) => void
  setFilter: (patch: Partial<F>) => void
}

/** The list in a component, which shows it while mounted (see `attach`); `config` follows the component's props. */
export function usePagedList<T, F>(list: PagedList<T, F>, config: PagedListSettings<F> = {}): PagedListView<T, F> {
  const state = useStore(list.$state)
  const key = JSON.stringify(config)
  const enabled = config.enabled !== false
  // attach once per mount (or once enabled) with the config of that moment; later changes go through configure
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => (enabled ? list.attach(JSON.parse(key) as PagedListSettings<F>) : undefined), [list, enabled])
  useEffect(() => {
    if (enabled) list.configure(JSON.parse(key) as PagedListSettings<F>)
  }, [list, key, enabled])
  return {
    ...state,
    load: listLoad(state),
    reload: list.reload,
    loadMore: list.loadMore,
    showSearch: list.showSearch,
    setItems: list.setItems,
    replace: list.replace,
    remove: list.remove,
    setFilter: list.setFilter,
  }
}

/** The state as the LoadState component reads it. */
export function listLoad<T>(state: PagedListState<T, unknown>): Load<T[]> {
  if (state.error) return { state: 'error', error: state.error }
  if (state.loading) return { state: 'loading' }
  return { state: 'ready', data: state.items, refreshing: state.refreshing }
}
