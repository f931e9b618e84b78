import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { useLogLabels, type LogLabel } from './logs-labels.ts'
import type { Labels } from '../../ui/labels.ts'
import type { Log } from '../../api/types.ts'
import { LOG_TYPE } from '../../../domain/statuses.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { formatTimestamp } from '../../ui/datetime.ts'
import { isStream, logDurationTone, logTypeLabel, parseOther, pricing, retryChain, TONE_VARIANT } from './log-format.ts'

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
  if (!line && !log.content) return <span data-col="details">—</span>
  const full = [line, log.content].filter(Boolean).join('\n')
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
      {log.content && <span className="tg-muted">{log.content}</span>}
    </button>
  )
}

/**
 * The log table. Usage columns (duration, stream, tokens) are filled for consumption rows;
 * administrators also see the channel with its retry chain and the user.
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
  return (
    <div className="tg-table-wrap" tabIndex={0} role="region" aria-label={t('logs.tableLabel')} part="table">
      <table className="tg-table" data-table="logs">
        <thead>
          <tr>
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
          {logs.map((log, i) => {
            const type = logTypeLabel(log.type)
            const usage = log.type === LOG_TYPE.consume
            const tone = logDurationTone(log.use_time)
            const chain = admin ? retryChain(parseOther(log.other)) : []
            return (
              <tr key={log.id ?? `${log.created_at}-${i}`} data-log-row="">
                <td className="tg-nowrap" data-col="time">
                  {formatTimestamp(log.created_at)}
                </td>
                {admin && (
                  <td data-col="channel">
                    {log.channel ? (
                      <sl-tag size="small" variant="neutral">
                        #{log.channel}
                      </sl-tag>
                    ) : (
                      '—'
                    )}
                    {chain.length > 1 && (
                      <div
                        className="tg-log__chain"
                        data-retry-chain={chain.join(',')}
                        title={`${t('logs.retryChain')}: ${chain.join(' → ')}`}
                      >
                        <span className="tg-log__sr">{t('logs.retryChain')}: </span>
                        <span aria-hidden="true">↻ </span>
                        {chain.join(' → ')}
                      </div>
                    )}
                  </td>
                )}
                {admin && (
                  <td data-col="user">
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
                )}
                <td data-col="token" className="tg-log__token" title={log.token_name || undefined}>
                  {log.token_name || '—'}
                </td>
                <td data-col="type">
                  <sl-tag size="small" variant={type.variant} data-type={log.type}>
                    {t(type.key)}
                  </sl-tag>
                </td>
                <td data-col="model">
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
                <td data-col="duration" className="tg-nowrap">
                  {usage ? (
                    <span className="tg-log__usage">
                      <sl-tag size="small" variant={TONE_VARIANT[tone]} data-tone={tone}>
                        {t('logs.seconds', { n: log.use_time })}
                      </sl-tag>
                      <sl-tag size="small" variant={isStream(log) ? 'primary' : 'neutral'} data-stream={String(isStream(log))}>
                        {isStream(log) ? t('logs.stream') : t('logs.nonStream')}
                      </sl-tag>
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="tg-num tg-nowrap" data-col="tokens">
                  {usage ? (
                    <span className="tg-log__tokens">
                      <span title={t('logs.col.prompt')}>
                        <span className="tg-log__unit">{t('logs.tokens.in')}</span> <span data-col="prompt">{log.prompt_tokens}</span>
                      </span>
                      <span title={t('logs.col.completion')}>
                        <span className="tg-log__unit">{t('logs.tokens.out')}</span>{' '}
                        <span data-col="completion">{log.completion_tokens}</span>
                      </span>
                    </span>
                  ) : (
                    <span data-col="prompt">—</span>
                  )}
                </td>
                <td className="tg-num tg-nowrap" data-col="quota">
                  {log.quota ? formatQuota(log.quota, status, 6) : '—'}
                </td>
                <td className="tg-log__details-cell">
                  <Details log={log} t={t} />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
