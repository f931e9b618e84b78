import { useState } from 'react'
import { useT } from '../../i18n/t.ts'
import * as accountApi from '../../api/account.ts'
import { toast } from '../../stores/toasts.ts'
import { useCountdown } from '../../ui/countdown.ts'
import { RESEND_LOCK_SECONDS } from '../../../domain/time.ts'
import { USERNAME_MAX } from '../../../domain/account-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/envelope.ts'
import '../../ui/icons/person.ts'
import '../../ui/icons/shield-lock.ts'
import '../../i18n/en/register.ts'

/** The registration form's fields, by name. */
export interface RegisterForm {
  username: string
  password: string
  password2: string
  email: string
  code: string
}

/** The value and input handler of one field (spread onto its sl-input). */
export type FieldProps = (name: keyof RegisterForm) => { value: string; 'onsl-input': (e: Event) => void }

/** Username, password and its confirmation. */
export function CredentialFields({ field }: { field: FieldProps }) {
  const t = useT()
  return (
    <>
      <sl-input
        label={t('field.username')}
        name="username"
        autocomplete="username"
        placeholder={t('placeholder.username')}
        maxlength={USERNAME_MAX}
        {...field('username')}
      >
        <sl-icon slot="prefix" name="person"></sl-icon>
      </sl-input>
      <sl-input
        label={t('field.password')}
        name="password"
        type="password"
        autocomplete="new-password"
        passwordToggle
        placeholder={t('placeholder.password')}
        {...field('password')}
      >
        <sl-icon slot="prefix" name="shield-lock"></sl-icon>
      </sl-input>
      <sl-input
        label={t('field.password2')}
        name="password2"
        type="password"
        autocomplete="new-password"
        passwordToggle
        placeholder={t('placeholder.password2')}
        {...field('password2')}
      >
        <sl-icon slot="prefix" name="shield-lock"></sl-icon>
      </sl-input>
    </>
  )
}

/**
 * With e-mail verification on: the e-mail, the send-code button (locked 30 s after each send) and
 * the code. `turnstileToken` is null while the bot check has not answered; `onMessage` says what is wrong.
 */
export function EmailFields({
  field,
  email,
  turnstileToken,
  onMessage,
}: {
  field: FieldProps
  email: string
  turnstileToken: string | null
  onMessage: (message: string | null) => void
}) {
  const t = useT()
  const [sending, setSending] = useState(false)
  const lock = useCountdown()
  const left = lock.left

  async function sendCode() {
    onMessage(null)
    if (!email.trim()) {
      onMessage(t('register.emailMissing'))
      return
    }
    if (turnstileToken === null) {
      onMessage(t('turnstile.notReady'))
      return
    }
    setSending(true)
    try {
      await accountApi.sendVerification(email.trim(), turnstileToken)
      toast.success(t('register.codeSent'))
      lock.start(RESEND_LOCK_SECONDS)
    } catch {
      // shown by the API client
    } finally {
      setSending(false)
    }
  }

  return (
    <>
      <div className="tg-form__row">
        <sl-input
          label={t('field.email')}
          name="email"
          type="email"
          autocomplete="email"
          placeholder={t('placeholder.email')}
          {...field('email')}
        >
          <sl-icon slot="prefix" name="envelope"></sl-icon>
        </sl-input>
        <sl-button onClick={sendCode} disabled={left > 0} loading={sending} data-action="send-code">
          {left > 0 ? t('register.resendIn', { n: left }) : t('register.sendCode')}
        </sl-button>
      </div>
      <sl-input
        label={t('field.code')}
        name="verification_code"
        autocomplete="one-time-code"
        placeholder={t('placeholder.code')}
        {...field('code')}
      ></sl-input>
    </>
  )
}
