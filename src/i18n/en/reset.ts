import { addWords } from '../words.ts'

/** English words of the password reset forms. */
export const resetWords = {
  'reset.title': 'Reset your password',
  'reset.subtitle': 'Enter the e-mail address of your account. We will send you a link to reset the password.',
  'reset.submit': 'Send reset e-mail',
  'reset.resendIn': 'Send again in {n} s',
  'reset.sent': 'reset e-mail sent, check your inbox',
  'reset.emailMissing': 'please enter the e-mail address',
  'reset.back': 'Back to sign in',
  'resetConfirm.title': 'Choose the new password',
  'resetConfirm.subtitle': 'Reset the password of {email}. The new password is shown once; keep it somewhere safe.',
  'resetConfirm.submit': 'Reset password',
  'resetConfirm.newPassword': 'Your new password',
  'resetConfirm.copied': 'new password copied to clipboard',
  'resetConfirm.invalid': 'this reset link is incomplete; request a new reset e-mail',
  'resetConfirm.done': 'Password reset. Sign in with the new password, then change it in Settings.',
  'resetConfirm.toLogin': 'Go to sign in',
}

addWords('reset', resetWords, () => import('../zh-CN/reset.ts'))
