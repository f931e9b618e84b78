import { useT, type MessageKey } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

export type TaskKind = 'midjourney' | 'luma' | 'lumav2' | 'suno' | 'ideo' | 'viggle' | 'runway' | 'pika' | 'kling'

const TITLE: Record<TaskKind, MessageKey> = {
  midjourney: 'nav.drawing',
  luma: 'nav.luma',
  lumav2: 'nav.lumav2',
  suno: 'nav.music',
  ideo: 'nav.ideo',
  viggle: 'nav.viggle',
  runway: 'nav.runway',
  pika: 'nav.pika',
  kling: 'nav.kling',
}

/** A task list (/midjourney, /suno, …). Arrives in a later release; the console already routes here. */
export function TasksScreen({ kind }: { kind: TaskKind }) {
  const t = useT()
  return <LaterRelease screen={t(TITLE[kind])} />
}
