import { useEffect, useState, type FormEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import { fromLocalInput, toLocalInput } from '../../ui/datetime.ts'
import { GRANULARITIES } from '../../../domain/time.ts'
import { parseGranularity, type Granularity } from './usage-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '../../i18n/en/dashboard.ts'

/** The period (unix seconds) and, for an administrator, the user whose usage the dashboard shows. */
export interface Query {
  start: number
  end: number
  username: string
}

/**
 * The query form: start and end as typed (following the query when it changes from outside) and,
 * for an administrator, a username. A range that cannot be read, or ends before it starts, is
 * refused with a message; asking the same query again asks `onRetry`.
 */
export function DashboardFilters({
  admin,
  query,
  onQuery,
  onRetry,
  busy,
}: {
  admin: boolean
  query: Query
  onQuery: (q: Query) => void
  onRetry: () => void
  /** a query on its way while the last figures stay */
  busy: boolean | undefined
}) {
  const t = useT()
  const [startText, setStartText] = useState(() => toLocalInput(query.start))
  const [endText, setEndText] = useState(() => toLocalInput(query.end))
  const [username, setUsername] = useState(query.username)
  const [message, setMessage] = useState<string | null>(null)

  useEffect(() => {
    setStartText(toLocalInput(query.start))
    setEndText(toLocalInput(query.end))
  }, [query.start, query.end])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const start = fromLocalInput(startText)
    const end = fromLocalInput(endText)
    if (start === null || end === null || end < start) {
      setMessage(t('dashboard.rangeInvalid'))
      return
    }
    setMessage(null)
    const next = { start, end, username: admin ? username.trim() : '' }
    if (next.start === query.start && next.end === query.end && next.username === query.username) onRetry()
    else onQuery(next)
  }

  return (
    <form className="tg-dash__filters" part="filters" onSubmit={submit} noValidate aria-label={t('dashboard.filters')}>
      <sl-input
        name="start"
        type="datetime-local"
        label={t('dashboard.start')}
        value={startText}
        onsl-input={(e: Event) => setStartText((e.target as HTMLInputElement).value)}
      ></sl-input>
      <sl-input
        name="end"
        type="datetime-local"
        label={t('dashboard.end')}
        value={endText}
        onsl-input={(e: Event) => setEndText((e.target as HTMLInputElement).value)}
      ></sl-input>
      {admin && (
        <sl-input
          name="username"
          label={t('dashboard.username')}
          placeholder={t('dashboard.usernamePlaceholder')}
          value={username}
          autocomplete="off"
          clearable
          onsl-input={(e: Event) => setUsername((e.target as HTMLInputElement).value)}
        ></sl-input>
      )}
      <sl-button type="submit" variant="primary" loading={busy} data-query="">
        {t('dashboard.query')}
      </sl-button>
      {message && (
        <p className="tg-dash__message" role="alert">
          {message}
        </p>
      )}
    </form>
  )
}

/** Hour, day or week: the same answer grouped again, without a new request. */
export function GranularityPicker({ granularity, onGranularity }: { granularity: Granularity; onGranularity: (g: Granularity) => void }) {
  const t = useT()
  return (
    <sl-radio-group
      className="tg-dash__granularity"
      name="granularity"
      data-granularity-group=""
      label={t('dashboard.granularity')}
      value={granularity}
      size="small"
      onsl-change={(e: Event) => onGranularity(parseGranularity((e.target as HTMLInputElement).value))}
    >
      {GRANULARITIES.map((g) => (
        <sl-radio-button key={g} value={g} data-granularity={g}>
          {t(`dashboard.${g}`)}
        </sl-radio-button>
      ))}
    </sl-radio-group>
  )
}
