import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { $status } from '../../stores/status.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import '../../ui/icons/chat-dots.ts'
import '../../i18n/en/console.ts'

/** /chat: the configured chat link in a frame, or 'admin has not set chat link'. */
export function ChatScreen() {
  const t = useT()
  const status = useStore($status)
  const link = status?.chat_link?.trim()
  if (!link) {
    return (
      <div className="tg-chat tg-chat--empty">
        <EmptyState icon="chat-dots" title={t('chat.unset')} />
      </div>
    )
  }
  return (
    <iframe
      className="tg-frame tg-chat__frame"
      src={link}
      title={t('chat.frame')}
      allow="clipboard-read; clipboard-write; microphone"
    ></iframe>
  )
}
