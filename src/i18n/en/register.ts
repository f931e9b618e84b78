import { addWords } from '../words.ts'

/** English words of the registration form. */
export const registerWords = {
  'field.password2': 'Confirm password',
  'placeholder.password2': 'Enter the password again',
  'placeholder.code': 'Code from the e-mail',
  'register.title': 'Create your account',
  'register.subtitle': 'Get a key for every model the gateway serves.',
  'register.submit': 'Create account',
  'register.success': 'registered',
  'register.sendCode': 'Send code',
  'register.resendIn': 'Resend in {n} s',
  'register.codeSent': 'verification code sent, check your inbox',
  'register.emailMissing': 'please enter the e-mail address',
  'register.codeMissing': 'please enter the e-mail address and the verification code',
  'register.invitedBy': 'Invite code {code} will be applied.',
  'register.haveAccount': 'Already have an account?',
  'register.toLogin': 'Sign in',
  'register.closed': 'Registration with a password is closed on this site.',
}

addWords('register', registerWords, () => import('../zh-CN/register.ts'))
