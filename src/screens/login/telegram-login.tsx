import { useMemo } from 'react'
import { useLocale } from '../../i18n/t.ts'
import { TELEGRAM_LOGIN_PATH } from '../../api/oauth.ts'
import { $config } from '../../stores/config.ts'

/**
 * The chat-app sign-in widget with its auth URL at /api/oauth/telegram/login. Telegram's widget
 * script finds its own <script> tag through document.currentScript, which is null inside a shadow
 * root, so the frame the script would insert is built here directly from the same parameters.
 */
export function TelegramLogin({ botName }: { botName: string }) {
  const locale = useLocale()
  const src = useMemo(() => {
    const authUrl = new URL(`${$config.get().apiBase}${TELEGRAM_LOGIN_PATH}`, location.href).href
    const q = new URLSearchParams({
      origin: location.origin,
      return_to: authUrl,
      size: 'large',
      request_access: 'write',
      lang: locale === 'zh' ? 'zh-hans' : 'en',
    })
    return `https://oauth.telegram.org/embed/${encodeURIComponent(botName)}?${q}`
  }, [botName, locale])
  return (
    <div className="tg-telegram" data-provider="telegram">
      <iframe src={src} title="Telegram" scrolling="no" data-auth-url={TELEGRAM_LOGIN_PATH}></iframe>
    </div>
  )
}
