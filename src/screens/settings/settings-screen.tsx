import { useT } from '../../i18n/t.ts'
import { LaterRelease } from '../../ui/later-release.tsx'

/** Settings (/setting, tab from ?tab=). Arrives in a later release; the console already routes here. */
export function SettingsScreen(_props: { tab?: string }) {
  const t = useT()
  return <LaterRelease screen={t('nav.setting')} />
}
