import type { logsWords } from '../en/logs.ts'

/** Simplified Chinese words of the usage logs (same keys as en/logs.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof logsWords, string> = {
  'logs.clean.missing': '请选择日志时间',
  'logs.clean.done': '已清理 {n} 条日志',
  'logs.clean.failed': '日志清理失败',
}

export default words
