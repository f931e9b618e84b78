import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { $status } from '../../stores/status.ts'
import { useT } from '../../i18n/t.ts'
import * as oauthApi from '../../api/oauth.ts'
import type { User } from '../../api/types.ts'
import { WechatDialog } from './wechat-dialog.tsx'
import { TelegramLogin } from './telegram-login.tsx'
import { oauthMethods } from './oauth-methods.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../../ui/icons/github.ts'
import '../../ui/icons/wechat.ts'
import '../../i18n/en/login.ts'

/**
 * The outside sign-in methods, each shown only when the public status enables it: the
 * code-hosting service (GitHub), the messaging app (WeChat, QR code + code) and the chat app
 * (Telegram widget). The sign-in screen loads this module only when the status enables one.
 */
export function OAuthButtons({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const t = useT()
  const status = useStore($status)
  const [wechatOpen, setWechatOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const { github, wechat, telegram } = oauthMethods(status)
  if (!github && !wechat && !telegram) return null

  async function startGithub() {
    if (!status) return
    setBusy(true)
    try {
      const state = await oauthApi.state()
      location.assign(oauthApi.githubAuthorizeUrl(status.github_client_id, state))
    } catch {
      setBusy(false)
    }
  }

  return (
    <div className="tg-oauth-block" data-oauth="">
      <div className="tg-divider">{t('login.otherMethods')}</div>
      <div className="tg-oauth">
        {github && (
          <sl-button variant="default" onClick={startGithub} loading={busy} data-provider="github">
            <sl-icon slot="prefix" name="github"></sl-icon>
            {t('login.github')}
          </sl-button>
        )}
        {wechat && (
          <sl-button variant="default" onClick={() => setWechatOpen(true)} data-provider="wechat">
            <sl-icon slot="prefix" name="wechat"></sl-icon>
            {t('login.wechat')}
          </sl-button>
        )}
      </div>
      {telegram && <TelegramLogin botName={status!.telegram_bot_name} />}
      {wechat && (
        <WechatDialog open={wechatOpen} qrCode={status!.wechat_qrcode} onClose={() => setWechatOpen(false)} onSignedIn={onSignedIn} />
      )}
    </div>
  )
}
