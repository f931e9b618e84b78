import type { MessageKey } from '../../i18n/t.ts'
import '../../i18n/en/console.ts'

/** The festive greeting of the day: Jan 1 and Feb 9 to 24 (local time), otherwise none. */
export function festiveGreeting(date: Date): MessageKey | null {
  const month = date.getMonth()
  const day = date.getDate()
  if (month === 0 && day === 1) return 'top.newYear'
  if (month === 1 && day >= 9 && day <= 24) return 'top.springFestival'
  return null
}
