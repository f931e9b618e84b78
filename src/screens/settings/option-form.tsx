import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useT, problemMessage } from '../../i18n/t.ts'
import * as optionsApi from '../../api/options.ts'
import { $isRoot } from '../../stores/session.ts'
import { refreshStatus } from '../../stores/status.ts'
import { toast } from '../../stores/toasts.ts'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { DomainList } from './option-domain-list.tsx'
import { useLabels, type LabelKey, type Labels } from './option-labels.ts'
import { normaliseOption, optionProblem, optionRule } from '../../../domain/option-rules.ts'
import type { Problem } from '../../../domain/problem.ts'
import optionCss from './option-form.css?inline'

/** Every option as the server sends it: key → string value (secrets as ''). */
export type Options = Record<string, string>

export type FieldKind = 'text' | 'url' | 'secret' | 'number' | 'switch' | 'choice' | 'json' | 'textarea' | 'list'

/**
 * One field of an option form: how it is drawn. What a value may be (numbers and their bounds,
 * JSON, choices) is the option's rule in domain/option-rules.ts, which the server checks too.
 */
export interface FieldDef {
  key: string
  kind: FieldKind
  /** sent only when non-empty: secrets (the server never sends them back) and EpayId */
  sendIfSet?: boolean
  hint?: LabelKey
  placeholder?: string
  /** spans the whole row */
  wide?: boolean
  /** text areas holding code (JSON, HTML): monospace, no spell check */
  code?: boolean
}

/** The label of an option key (every key of spec section 3 has one: `opt.<Key>`). */
export const optionLabel = (labels: Labels, key: string) => labels(`opt.${key}` as LabelKey)

/** The value as it is sent and stored: what the form compares with the saved value. */
export function normalize(field: FieldDef, raw: string): string {
  switch (field.kind) {
    case 'switch':
      return raw === 'true' ? 'true' : 'false'
    case 'text':
    case 'secret':
      return raw.trim()
    default:
      // trailing slashes of addresses, numbers in plain form, the domain list de-duplicated
      return normaliseOption(field.key, raw)
  }
}

/** The values of a choice option, labelled `opt.<value>`. */
const choicesOf = (key: string): readonly string[] => {
  const rule = optionRule(key)
  return rule?.kind === 'choice' ? rule.choices : []
}

const isInteger = (key: string): boolean => {
  const rule = optionRule(key)
  return rule?.kind === 'number' && rule.integer
}

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

export interface SaveFailure {
  key: string
  message: string
}

export interface OptionForm {
  fields: readonly FieldDef[]
  value: (key: string) => string
  set: (key: string, value: string) => void
  /** JSON fields are checked when the user leaves them */
  blur: (key: string) => void
  errors: Record<string, string>
  failures: SaveFailure[]
  busy: boolean
  dirty: boolean
  /** the keys that would be saved, with their normalised values, in save order */
  changes: () => Array<[FieldDef, string]>
  save: (before?: (changes: Array<[FieldDef, string]>) => boolean | Promise<boolean>) => Promise<void>
  /** forgets the user's edits of these keys (after a reset on the server) */
  discard: (keys: readonly string[]) => void
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
  const [failures, setFailures] = useState<SaveFailure[]>([])
  const [busy, setBusy] = useState(false)
  const byKey = useMemo(() => new Map(fields.map((f) => [f.key, f])), [fields])
  // the save reads the latest edits even when a confirmation dialog awaited in between
  const editsRef = useRef(edits)
  editsRef.current = edits

  const value = (key: string) => (key in edits ? edits[key]! : (options[key] ?? ''))

  const set = (key: string, next: string) => {
    setEdits((e) => ({ ...e, [key]: next }))
    setErrors((e) => {
      if (!(key in e)) return e
      const { [key]: _gone, ...rest } = e
      return rest
    })
  }

  const blur = (key: string) => {
    const field = byKey.get(key)
    if (!field || field.kind !== 'json') return
    const problem = optionProblem(key, normalize(field, value(key)))
    const message = problem && problemMessage(t, problem)
    setErrors((e) => {
      if (message) return { ...e, [key]: message }
      const { [key]: _gone, ...rest } = e
      return rest
    })
  }

  const changesOf = (current: Options): Array<[FieldDef, string]> => {
    const out: Array<[FieldDef, string]> = []
    for (const field of fields) {
      if (!(field.key in current)) continue
      const v = normalize(field, current[field.key]!)
      if (field.sendIfSet && v === '') continue
      if (v !== (options[field.key] ?? '')) out.push([field, v])
    }
    // switches last: a switch may need a value of the same form saved first (GitHubOAuthEnabled, EmailDomainRestrictionEnabled)
    return [...out.filter(([f]) => f.kind !== 'switch'), ...out.filter(([f]) => f.kind === 'switch')]
  }

  const changes = () => changesOf(editsRef.current)

  const save: OptionForm['save'] = async (before) => {
    const pending = changes()
    if (pending.length === 0) {
      toast.info(t('options.noChange'))
      return
    }
    const messages: Record<string, string> = {}
    let first: [FieldDef, Problem] | null = null
    for (const [field, v] of pending) {
      const problem = optionProblem(field.key, v)
      if (!problem) continue
      messages[field.key] = problemMessage(t, problem)
      first ??= [field, problem]
    }
    if (first) {
      setErrors((e) => ({ ...e, ...messages }))
      const [field, problem] = first
      // spec section 5: a ratio that is not JSON says 'please check the input'; the top-up group ratio has its own words
      if (field.kind === 'json')
        toast.error(problem.id === 'option.topupRatioNotJson' ? problemMessage(t, problem) : t('options.checkInput'))
      else toast.error(t('options.fieldError', { field: optionLabel(labels, field.key), message: messages[field.key]! }))
      return
    }
    if (before && !(await before(pending))) return
    setBusy(true)
    const done: Options = {}
    const failed: SaveFailure[] = []
    // one PUT per key, one after the other (a later key may depend on an earlier one)
    for (const [field, v] of pending) {
      try {
        await optionsApi.update(field.key, v)
        // secrets are never held: the server hides them and the field goes back to empty
        done[field.key] = field.kind === 'secret' ? '' : v
      } catch (e) {
        failed.push({ key: field.key, message: (e as Error).message })
      }
    }
    setBusy(false)
    setFailures(failed)
    if (Object.keys(done).length) {
      const sent = new Map(pending.map(([f, v]) => [f.key, v]))
      // a saved key stops being an edit, unless the user typed on while it was saving
      setEdits((e) => {
        const rest = { ...e }
        for (const key of Object.keys(done)) if (key in rest && normalize(byKey.get(key)!, rest[key]!) === sent.get(key)) delete rest[key]
        return rest
      })
      saved(done)
      void refreshStatus()
    }
    if (failed.length) toast.error(t('options.someFailed'))
    else toast.success(t('options.saved'))
  }

  const discard = (keys: readonly string[]) => {
    setEdits((e) => {
      const rest = { ...e }
      for (const key of keys) delete rest[key]
      return rest
    })
    setErrors((e) => {
      const rest = { ...e }
      for (const key of keys) delete rest[key]
      return rest
    })
  }

  return { fields, value, set, blur, errors, failures, busy, dirty: changesOf(edits).length > 0, changes, save, discard }
}

/** One field of an option form, drawn by its kind. */
export function OptionField({
  form,
  field,
  disabled = false,
  hint,
}: {
  form: OptionForm
  field: FieldDef
  disabled?: boolean
  hint?: string
}) {
  const t = useT()
  const labels = useLabels()
  const { key } = field
  const label = optionLabel(labels, key)
  const error = form.errors[key]
  const help = error ?? hint ?? (field.kind === 'secret' ? t('options.secretHint') : field.hint ? labels(field.hint) : undefined)
  const onInput = (e: Event) => form.set(key, (e.target as HTMLInputElement).value)
  const common = {
    name: key,
    'data-option': key,
    label,
    helpText: help,
    disabled,
    className: `tg-opt__field${field.wide ? ' tg-opt__field--wide' : ''}${error ? ' tg-opt__field--invalid' : ''}`,
    'data-invalid': error ? '' : undefined,
  }

  switch (field.kind) {
    case 'switch':
      return (
        <div className={`tg-opt__switch${field.wide ? ' tg-opt__field--wide' : ''}`}>
          <sl-switch
            name={key}
            data-option={key}
            checked={form.value(key) === 'true'}
            disabled={disabled}
            helpText={help}
            onsl-change={(e: Event) => form.set(key, (e.target as HTMLInputElement).checked ? 'true' : 'false')}
          >
            {label}
          </sl-switch>
        </div>
      )
    case 'choice':
      return (
        <sl-radio-group {...common} value={form.value(key)} onsl-change={onInput}>
          {choicesOf(key).map((c) => (
            <sl-radio-button key={c} value={c} data-choice={c}>
              {labels(`opt.${c}` as LabelKey)}
            </sl-radio-button>
          ))}
        </sl-radio-group>
      )
    case 'json':
    case 'textarea':
      return (
        <sl-textarea
          {...common}
          className={`${common.className} tg-opt__field--wide${field.kind === 'json' || field.code ? ' tg-opt__code' : ''}`}
          value={form.value(key)}
          rows={field.kind === 'json' || field.code ? 8 : 4}
          resize="vertical"
          spellcheck={field.kind === 'json' || field.code ? false : undefined}
          onsl-input={onInput}
          onsl-blur={() => form.blur(key)}
        ></sl-textarea>
      )
    case 'list':
      return <DomainList form={form} field={field} label={label} />
    default:
      return (
        <sl-input
          {...common}
          type={field.kind === 'secret' ? 'password' : field.kind === 'number' ? 'number' : field.kind === 'url' ? 'url' : 'text'}
          inputmode={field.kind === 'number' ? (isInteger(key) ? 'numeric' : 'decimal') : undefined}
          noSpinButtons={field.kind === 'number' ? true : undefined}
          passwordToggle={field.kind === 'secret' ? true : undefined}
          autocomplete={field.kind === 'secret' ? 'new-password' : 'off'}
          placeholder={field.kind === 'secret' ? t('options.secretPlaceholder') : field.placeholder}
          value={form.value(key)}
          onsl-input={onInput}
          onsl-blur={() => form.blur(key)}
        ></sl-input>
      )
  }
}

/** The fields of a form: inputs in a grid, switches together below them. */
export function OptionFields({ form, only }: { form: OptionForm; only?: readonly string[] }) {
  const fields = only ? form.fields.filter((f) => only.includes(f.key)) : form.fields
  const inputs = fields.filter((f) => f.kind !== 'switch')
  const switches = fields.filter((f) => f.kind === 'switch')
  return (
    <>
      {switches.length > 0 && (
        <div className="tg-opt__switches">
          {switches.map((f) => (
            <OptionField key={f.key} form={form} field={f} />
          ))}
        </div>
      )}
      {inputs.length > 0 && (
        <div className="tg-opt__grid">
          {inputs.map((f) => (
            <OptionField key={f.key} form={form} field={f} />
          ))}
        </div>
      )}
    </>
  )
}

export interface OptionSectionProps {
  id: string
  title: string
  hint?: string
  form: OptionForm
  /** runs after the checks, before the first PUT; false stops the save */
  before?: (changes: Array<[FieldDef, string]>) => boolean | Promise<boolean>
  /** the fields; the form's fields in the standard layout when absent */
  children?: ReactNode
  /** more buttons beside Save */
  actions?: ReactNode
}

/** A card with one option form and its Save button. */
export function OptionSection({ id, title, hint, form, before, children, actions }: OptionSectionProps) {
  const t = useT()
  const labels = useLabels()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form.busy) void form.save(before)
  }
  return (
    <section className="tg-opt" data-section={id} aria-labelledby={`tg-opt-${id}`}>
      <form className="tg-opt__form" onSubmit={submit} noValidate>
        <header className="tg-opt__header">
          <h2 id={`tg-opt-${id}`}>{title}</h2>
          {hint && <p>{hint}</p>}
        </header>
        {children ?? <OptionFields form={form} />}
        {form.failures.length > 0 && (
          <sl-alert variant="danger" open data-failures="">
            <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
            {t('options.failedList')}
            <ul className="tg-opt__failures">
              {form.failures.map((f) => (
                <li key={f.key}>
                  <strong>{optionLabel(labels, f.key)}</strong> ({f.key}): {f.message}
                </li>
              ))}
            </ul>
          </sl-alert>
        )}
        <footer className="tg-opt__footer">
          {form.dirty && (
            <span className="tg-opt__dirty" data-dirty="">
              {t('options.unsaved')}
            </span>
          )}
          {actions}
          <sl-button type="submit" variant="primary" loading={form.busy} data-save={id}>
            {t('options.save')}
          </sl-button>
        </footer>
      </form>
    </section>
  )
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
    optionsApi
      .list()
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
    optionsApi
      .list(true)
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
