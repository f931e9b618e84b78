import { addWords } from '../words.ts'

/** English words of the sign-in box and the OAuth return. */
export const loginWords = {
  'placeholder.loginUsername': 'Username or e-mail',
  'placeholder.loginPassword': 'Password',
  'login.title': 'Sign in',
  'login.subtitle': 'Welcome back. Sign in to manage your tokens, quota and usage.',
  'login.submit': 'Sign in',
  'login.signedInTitle': 'Signed in',
  'login.signedInAs': 'Signed in as',
  'login.defaultPassword': 'you are using the default super-administrator password; change it right away in Settings',
  'login.expired': 'not logged in or login expired, please log in again',
  'login.noAccount': 'No account yet?',
  'login.toRegister': 'Create one',
  'login.forgot': 'Forgot your password?',
  'login.toReset': 'Reset it',
  'login.otherMethods': 'or sign in with',
  'login.github': 'GitHub',
  'login.wechat': 'WeChat',
  'login.passwordOff': 'Password sign-in is turned off on this site; use another method.',
  'wechat.title': 'Sign in with WeChat',
  'wechat.submit': 'Sign in',
  'wechat.missing': 'please enter the verification code',
  'oauth.bound': 'bound',
  'oauth.working': 'Signing you in…',
  'oauth.missing': 'the sign-in link is incomplete; start the sign-in again',
}

addWords('login', loginWords, () => import('../zh-CN/login.ts'))
