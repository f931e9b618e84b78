import { memo, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { useStore } from '@nanostores/react'
import { useLogLabels, type LogLabel } from './logs-labels.ts'
import type { Labels } from '../../ui/labels.ts'
import type { Log } from '../../api/types.ts'
import { LOG_TYPE } from '../../../domain/statuses.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { formatTimestamp } from '../../ui/datetime.ts'
import { isStream, logDurationTone, logTypeLabel, parseOther, pricing, relaySentence, retryChain, TONE_VARIANT } from './log-rules.ts'
import { useVirtualRows } from './virtual-rows.ts'

/**
 * The details in one line (ellipsis) so a row stays one or two lines high; the cell is a button
 * that unfolds the full text in place (also in its title). Its text content is always the full text.
 */
function Details({ log, t }: { log: Log; t: Labels<LogLabel> }) {
  const [open, setOpen] = useState(false)
  const other = parseOther(log.other)
  const p = pricing(other)
  let line = ''
  if (p?.kind === 'price') line = t('logs.details.price', { price: p.price, group: p.group })
  else if (p?.kind === 'ratio') line = t('logs.details.ratio', { model: p.model, completion: p.completion, group: p.group })
  // the relay's own English sentence says what the line says: shown once, in the reader's words
  const content = log.content && log.content !== relaySentence(p) ? log.content : ''
  if (!line && !content) return <span data-col="details">—</span>
  const full = [line, content].filter(Boolean).join('\n')
  return (
    <button
      type="button"
      className="tg-log__details"
      data-col="details"
      aria-expanded={open}
      title={open ? undefined : full}
      onClick={() => setOpen((o) => !o)}
    >
      {line && <span>{line}</span>}
      {content && <span className="tg-muted">{content}</span>}
    </button>
  )
}

/**
 * The log table. Usage columns (duration, stream, tokens) are filled for consumption rows;
 * administrators also see the channel with its retry chain and the user. It scrolls in its own
 * box and draws only the rows in view, so ten thousand loaded rows scroll as smoothly as ten;
 * on narrow screens each row is a card of labelled lines.
 */
export function LogTable({
  logs,
  admin,
  onUser,
  onCopy,
}: {
  logs: Log[]
  admin: boolean
  onUser: (log: Log) => void
  onCopy: (text: string) => void
}) {
  const t = useLogLabels()
  const status = useStore($status)
  const scroller = useRef<HTMLDivElement>(null)
  const rows = useVirtualRows(logs.length, scroller)
  const { measure } = rows
  // the rows keep the same handlers from render to render, so a drawn row is not drawn again
  const handlers = useRef({ onUser, onCopy })
  handlers.current = { onUser, onCopy }
  const userOf = useCallback((log: Log) => handlers.current.onUser(log), [])
  const copyOf = useCallback((text: string) => handlers.current.onCopy(text), [])
  useLayoutEffect(measure, [measure, rows.start, rows.end, logs])
  const columns = admin ? 10 : 8
  return (
    <div
      ref={scroller}
      className="tg-table-wrap tg-log__scroller"
      tabIndex={0}
      role="region"
      aria-label={t('logs.tableLabel')}
      part="table"
      data-rows-drawn={rows.end - rows.start}
    >
      <table className="tg-table" data-table="logs" aria-rowcount={logs.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t('logs.col.time')}</th>
            {admin && <th scope="col">{t('logs.col.channel')}</th>}
            {admin && <th scope="col">{t('logs.col.user')}</th>}
            <th scope="col">{t('logs.col.token')}</th>
            <th scope="col">{t('logs.col.type')}</th>
            <th scope="col">{t('logs.col.model')}</th>
            <th scope="col">{t('logs.col.duration')}</th>
            <th scope="col" className="tg-num" title={t('logs.col.tokensHint')}>
              {t('logs.col.tokens')}
            </th>
            <th scope="col" className="tg-num">
              {t('logs.col.quota')}
            </th>
            <th scope="col">{t('logs.col.details')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.before > 0 && <Spacer height={rows.before} columns={columns} />}
          {logs.slice(rows.start, rows.end).map((log, k) => {
            const i = rows.start + k
            return (
              <LogRow
                key={log.id ?? `${log.created_at}-${i}`}
                log={log}
                index={i}
                admin={admin}
                status={status}
                onUser={userOf}
                onCopy={copyOf}
              />
            )
          })}
          {rows.after > 0 && <Spacer height={rows.after} columns={columns} />}
        </tbody>
      </table>
    </div>
  )
}

/**
 * A small tag drawn with CSS alone (it looks like Shoelace's small sl-tag): a log row has up to
 * four, and rows are drawn while scrolling, where a custom element each would cost frames.
 */
function Tag({ variant, children, ...data }: { variant: string; children: ReactNode } & Record<`data-${string}`, unknown>) {
  return (
    <span className="tg-tag" data-variant={variant} {...data}>
      {children}
    </span>
  )
}

/** The blank space that stands for rows not drawn. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="tg-log__spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={columns}></td>
    </tr>
  )
}

interface RowProps {
  log: Log
  index: number
  admin: boolean
  status: ReturnType<typeof $status.get>
  onUser: (log: Log) => void
  onCopy: (text: string) => void
}

/** A cell's log, and the row's words (the cells do not each ask for them). */
interface CellProps {
  log: Log
  t: ReturnType<typeof useLogLabels>
}

/** The channel, with the retry chain the request went through. */
function ChannelCell({ log, t }: CellProps) {
  const chain = retryChain(parseOther(log.other))
  return (
    <td data-col="channel" data-label={t('logs.col.channel')}>
      {log.channel ? <Tag variant="neutral">#{log.channel}</Tag> : '—'}
      {chain.length > 0 && (
        <div className="tg-log__chain" data-retry-chain={chain.join(',')} title={`${t('logs.retryChain')}: ${chain.join(' → ')}`}>
          <span className="tg-log__sr">{t('logs.retryChain')}: </span>
          <span aria-hidden="true">↻ </span>
          {chain.join(' → ')}
        </div>
      )}
    </td>
  )
}

/** The user, a button that shows the user's details. */
function UserCell({ log, t, onUser }: CellProps & Pick<RowProps, 'onUser'>) {
  return (
    <td data-col="user" data-label={t('logs.col.user')}>
      {log.username ? (
        <button
          type="button"
          className="tg-linklike tg-log__user"
          title={log.username}
          data-user-id={log.user_id}
          onClick={() => onUser(log)}
        >
          {log.username}
        </button>
      ) : (
        '—'
      )}
    </td>
  )
}

/** A usage log's duration (with its tone and whether it streamed) and its prompt and completion tokens; '—' for other logs. */
function UsageCells({ log, t }: CellProps) {
  const usage = log.type === LOG_TYPE.consume
  const tone = logDurationTone(log.use_time)
  return (
    <>
      <td data-col="duration" data-label={t('logs.col.duration')} className="tg-nowrap">
        {usage ? (
          <span className="tg-log__usage">
            <Tag variant={TONE_VARIANT[tone]} data-tone={tone}>
              {t('logs.seconds', { n: log.use_time })}
            </Tag>
            <Tag variant={isStream(log) ? 'primary' : 'neutral'} data-stream={String(isStream(log))}>
              {isStream(log) ? t('logs.stream') : t('logs.nonStream')}
            </Tag>
          </span>
        ) : (
          '—'
        )}
      </td>
      <td className="tg-num tg-nowrap" data-col="tokens" data-label={t('logs.col.tokens')}>
        {usage ? (
          <span className="tg-log__tokens">
            <span title={t('logs.col.prompt')}>
              <span className="tg-log__unit">{t('logs.tokens.in')}</span> <span data-col="prompt">{log.prompt_tokens}</span>
            </span>
            <span title={t('logs.col.completion')}>
              <span className="tg-log__unit">{t('logs.tokens.out')}</span> <span data-col="completion">{log.completion_tokens}</span>
            </span>
          </span>
        ) : (
          <span data-col="prompt">—</span>
        )}
      </td>
    </>
  )
}

/** One log row (drawn again only when its own log changes). */
const LogRow = memo(function LogRow({ log, index, admin, status, onUser, onCopy }: RowProps) {
  const t = useLogLabels()
  const type = logTypeLabel(log.type)
  return (
    <tr data-log-row="" data-index={index} aria-rowindex={index + 2}>
      <td className="tg-nowrap" data-col="time" data-label={t('logs.col.time')}>
        {formatTimestamp(log.created_at)}
      </td>
      {admin && <ChannelCell log={log} t={t} />}
      {admin && <UserCell log={log} t={t} onUser={onUser} />}
      <td data-col="token" data-label={t('logs.col.token')} className="tg-log__token" title={log.token_name || undefined}>
        <span className="tg-log__clamp">{log.token_name || '—'}</span>
      </td>
      <td data-col="type" data-label={t('logs.col.type')}>
        <Tag variant={type.variant} data-type={log.type}>
          {t(type.key)}
        </Tag>
      </td>
      <td data-col="model" data-label={t('logs.col.model')}>
        {log.model_name ? (
          <button
            type="button"
            className="tg-chip tg-log__model"
            title={`${log.model_name} · ${t('logs.copyModel')}`}
            onClick={() => onCopy(log.model_name)}
          >
            {log.model_name}
          </button>
        ) : (
          '—'
        )}
      </td>
      <UsageCells log={log} t={t} />
      <td className="tg-num tg-nowrap" data-col="quota" data-label={t('logs.col.quota')}>
        {log.quota ? formatQuota(log.quota, status, 6) : '—'}
      </td>
      <td className="tg-log__details-cell" data-label={t('logs.col.details')}>
        <Details log={log} t={t} />
      </td>
    </tr>
  )
})
