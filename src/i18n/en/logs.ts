import { addWords } from '../words.ts'

/** English words of the usage logs. */
export const logsWords = {
  'logs.clean.missing': 'please choose a log time',
  'logs.clean.done': '{n, plural, one {# log cleaned} other {# logs cleaned}}',
  'logs.clean.failed': 'log cleaning failed',
}

addWords('logs', logsWords, () => import('../zh-CN/logs.ts'))
