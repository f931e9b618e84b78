import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage, type Translate } from '../../i18n/t.ts'
import { $isRoot } from '../../stores/session.ts'
import { loadOptions, saveOptions } from '../../stores/options.ts'
import { toast } from '../../stores/toasts.ts'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { useLabels, type Labels } from './option-labels.ts'
import { normalize, optionLabel, pendingChanges, withoutKeys, type Change, type FieldDef, type Options } from './option-rules.ts'
import { optionProblem } from '../../../domain/option-rules.ts'
import optionCss from './option-form.css?inline'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/settings.ts'

export type { FieldDef, Options } from './option-rules.ts'

interface OptionsContextValue {
  options: Options
  /** values the server accepted: the tab's copy is updated, then read again from the server */
  saved: (values: Options) => void
  reload: () => void
}

const OptionsContext = createContext<OptionsContextValue | null>(null)

export function useOptions(): OptionsContextValue {
  const ctx = useContext(OptionsContext)
  if (!ctx) throw new Error('useOptions outside <OptionsTab>')
  return ctx
}

export interface OptionForm {
  fields: readonly FieldDef[]
  value: (key: string) => string
  set: (key: string, value: string) => void
  /** JSON fields are checked when the user leaves them */
  blur: (key: string) => void
  errors: Record<string, string>
  failures: Array<{ key: string; message: string }>
  busy: boolean
  dirty: boolean
  /** the keys that would be saved, with their normalised values, in save order */
  changes: () => Change[]
  save: (before?: (changes: Change[]) => boolean | Promise<boolean>) => Promise<void>
  /** forgets the user's edits of these keys (after a reset on the server) */
  discard: (keys: readonly string[]) => void
}

/**
 * The problems of the changes, worded; with a toast for the first one (spec section 5: a ratio
 * that is not JSON says 'please check the input'; the top-up group ratio has its own words).
 * Null when every change may be saved.
 */
function refuseChanges(t: Translate, labels: Labels, pending: Change[]): Record<string, string> | null {
  const messages: Record<string, string> = {}
  let first: Change | null = null
  for (const change of pending) {
    const problem = optionProblem(change[0].key, change[1])
    if (!problem) continue
    messages[change[0].key] = problemMessage(t, problem)
    if (first) continue
    first = change
    const [field] = change
    if (field.kind === 'json') toast.error(problem.id === 'option.topupRatioNotJson' ? messages[field.key]! : t('options.checkInput'))
    else toast.error(t('options.fieldError', { field: optionLabel(labels, field.key), message: messages[field.key]! }))
  }
  return first ? messages : null
}

/**
 * The state of one option form: the user's edits over the saved options, checks, and the save
 * of each changed key with its own PUT /api/option/ (spec section 5, option forms).
 */
export function useOptionForm(fields: readonly FieldDef[]): OptionForm {
  const t = useT()
  const labels = useLabels()
  const { options, saved } = useOptions()
  const [edits, setEdits] = useState<Options>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failures, setFailures] = useState<OptionForm['failures']>([])
  const [busy, setBusy] = useState(false)
  const byKey = useMemo(() => new Map(fields.map((f) => [f.key, f])), [fields])
  // the save reads the latest edits even when a confirmation dialog awaited in between
  const editsRef = useRef(edits)
  editsRef.current = edits

  const value = (key: string) => (key in edits ? edits[key]! : (options[key] ?? ''))

  const set = (key: string, next: string) => {
    setEdits((e) => ({ ...e, [key]: next }))
    setErrors((e) => withoutKeys(e, [key]))
  }

  const blur = (key: string) => {
    const field = byKey.get(key)
    if (!field || field.kind !== 'json') return
    const problem = optionProblem(key, normalize(field, value(key)))
    const message = problem && problemMessage(t, problem)
    setErrors((e) => (message ? { ...e, [key]: message } : withoutKeys(e, [key])))
  }

  const changes = () => pendingChanges(fields, editsRef.current, options)

  const save: OptionForm['save'] = async (before) => {
    const pending = changes()
    if (pending.length === 0) return void toast.info(t('options.noChange'))
    const refused = refuseChanges(t, labels, pending)
    if (refused) return setErrors((e) => ({ ...e, ...refused }))
    if (before && !(await before(pending))) return
    setBusy(true)
    const { done, failed } = await saveOptions(pending.map(([f, v]) => [f.key, v]))
    setBusy(false)
    setFailures(failed)
    if (done.length) {
      const sent = new Map(pending.map(([f, v]) => [f.key, v]))
      // a saved key stops being an edit, unless the user typed on while it was saving
      setEdits((e) =>
        withoutKeys(
          e,
          done.filter((key) => key in e && normalize(byKey.get(key)!, e[key]!) === sent.get(key)),
        ),
      )
      // secrets are never held: the server hides them and the field goes back to empty
      saved(Object.fromEntries(done.map((key) => [key, byKey.get(key)!.kind === 'secret' ? '' : sent.get(key)!])))
    }
    if (failed.length) toast.error(t('options.someFailed'))
    else toast.success(t('options.saved'))
  }

  const discard = (keys: readonly string[]) => {
    setEdits((e) => withoutKeys(e, keys))
    setErrors((e) => withoutKeys(e, keys))
  }

  const dirty = pendingChanges(fields, edits, options).length > 0
  return { fields, value, set, blur, errors, failures, busy, dirty, changes, save, discard }
}

/**
 * A super-administrator settings tab: refuses other roles (the server refuses them too), loads
 * GET /api/option/ once, and gives its forms the options.
 */
export function OptionsTab({ id, children }: { id: string; children: ReactNode }) {
  const t = useT()
  const isRoot = useStore($isRoot)
  const [load, setLoad] = useState<Load<Options>>({ state: 'loading' })
  const live = useRef(true)

  const reload = useCallback(() => {
    setLoad((l) => (l.state === 'ready' ? { ...l, refreshing: true } : { state: 'loading' }))
    loadOptions()
      .then((options) => live.current && setLoad({ state: 'ready', data: options }))
      .catch((error: Error) => live.current && setLoad({ state: 'error', error }))
  }, [])

  useEffect(() => {
    live.current = true
    if (isRoot) reload()
    return () => {
      live.current = false
    }
  }, [isRoot, reload])

  const saved = useCallback((values: Options) => {
    setLoad((l) => (l.state === 'ready' ? { state: 'ready', data: { ...l.data, ...values } } : l))
    // read back what the server stored (it normalises some values too)
    loadOptions(true)
      .then((options) => live.current && setLoad({ state: 'ready', data: options }))
      .catch(() => {})
  }, [])

  const context = useMemo(() => (load.state === 'ready' ? { options: load.data, saved, reload } : null), [load, saved, reload])

  if (!isRoot) {
    return (
      <div data-options-tab={id} data-forbidden="">
        <EmptyState icon="shield-lock" title={t('forbidden.title')}>
          {t('options.rootOnly')}
        </EmptyState>
      </div>
    )
  }
  return (
    <div className="tg-opts" data-options-tab={id}>
      <style>{optionCss}</style>
      <LoadState load={load} onRetry={reload} skeletonRows={6}>
        {() => <OptionsContext.Provider value={context!}>{children}</OptionsContext.Provider>}
      </LoadState>
    </div>
  )
}
