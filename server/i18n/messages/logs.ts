/** Messages of the log calls (list, statistics, cleaning) and of the data dashboard. */
export const logs = {
  'log.cleaned': { en: 'logs cleaned', zh: '日志已清理' },
  'log.targetMissing': { en: '{field} is required: choose a log time', zh: '{field} 不能为空：请选择日志时间' },
  'log.targetInvalid': { en: '{field} must be a positive integer (unix seconds)', zh: '{field} 必须是正整数（Unix 时间，单位为秒）' },
  'data.endBeforeStart': { en: '{field} must not be before start_timestamp', zh: '{field} 不能早于 start_timestamp' },
  'data.spanTooLong': { en: 'the time span is too long: at most {days} days at a time', zh: '时间跨度过长：每次最多查询 {days} 天' },
} as const
