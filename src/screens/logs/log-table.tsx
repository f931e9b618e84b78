import { useStore } from '@nanostores/react'
import { useLogLabels, type LogLabel } from './logs-labels.ts'
import type { Labels } from '../../ui/labels.ts'
import type { Log } from '../../api/types.ts'
import { LOG_TYPE } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { formatTimestamp } from '../../ui/datetime.ts'
import { isStream, logDurationTone, logTypeLabel, parseOther, pricing, retryChain, TONE_VARIANT } from './log-format.ts'

function Details({ log, t }: { log: Log; t: Labels<LogLabel> }) {
  const other = parseOther(log.other)
  const p = pricing(other)
  let line = ''
  if (p?.kind === 'price') line = t('logs.details.price', { price: p.price, group: p.group })
  else if (p?.kind === 'ratio') line = t('logs.details.ratio', { model: p.model, completion: p.completion, group: p.group })
  return (
    <div className="tg-log__details" data-col="details">
      {line && <span>{line}</span>}
      {log.content && <span className="tg-muted">{log.content}</span>}
    </div>
  )
}

/**
 * The log table. Usage columns (duration, stream, tokens) are filled for consumption rows;
 * administrators also see the channel with its retry chain and the user.
 */
export function LogTable({ logs, admin, onUser, onCopy }: { logs: Log[]; admin: boolean; onUser: (log: Log) => void; onCopy: (text: string) => void }) {
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
            <th scope="col" className="tg-num">
              {t('logs.col.prompt')}
            </th>
            <th scope="col" className="tg-num">
              {t('logs.col.completion')}
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
                    {log.channel ? <sl-tag size="small" variant="neutral">#{log.channel}</sl-tag> : '—'}
                    {chain.length > 1 && (
                      <div className="tg-log__chain" data-retry-chain={chain.join(',')} title={t('logs.retryChain')}>
                        {t('logs.retryChain')}: {chain.join(' → ')}
                      </div>
                    )}
                  </td>
                )}
                {admin && (
                  <td data-col="user">
                    {log.username ? (
                      <button type="button" className="tg-linklike" data-user-id={log.user_id} onClick={() => onUser(log)}>
                        {log.username}
                      </button>
                    ) : (
                      '—'
                    )}
                  </td>
                )}
                <td data-col="token">{log.token_name || '—'}</td>
                <td data-col="type">
                  <sl-tag size="small" variant={type.variant} data-type={log.type}>
                    {t(type.key)}
                  </sl-tag>
                </td>
                <td data-col="model">
                  {log.model_name ? (
                    <button type="button" className="tg-chip" title={t('logs.copyModel')} onClick={() => onCopy(log.model_name)}>
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
                <td className="tg-num" data-col="prompt">
                  {usage ? log.prompt_tokens : '—'}
                </td>
                <td className="tg-num" data-col="completion">
                  {usage ? log.completion_tokens : '—'}
                </td>
                <td className="tg-num tg-nowrap" data-col="quota">
                  {log.quota ? formatQuota(log.quota, status, 6) : '—'}
                </td>
                <td>
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
