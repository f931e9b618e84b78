/**
 * Messages of signing in with an outside account (GitHub, WeChat, Telegram; spec section 7).
 * Provider names are words too (WeChat is 微信 in Chinese), so a message naming one has a key per
 * provider.
 */
type Provider = 'github' | 'wechat' | 'telegram'
type PerProvider<P extends string, Name extends string> = {
  readonly [K in P as `${Name}.${K}`]: { readonly en: string; readonly zh: string }
}

const notEnabled = {
  'oauth.notEnabled.github': { en: 'the administrator has not enabled sign-in with GitHub', zh: '管理员未开启 GitHub 登录' },
  'oauth.notEnabled.wechat': { en: 'the administrator has not enabled sign-in with WeChat', zh: '管理员未开启微信登录' },
  'oauth.notEnabled.telegram': { en: 'the administrator has not enabled sign-in with Telegram', zh: '管理员未开启 Telegram 登录' },
} as const satisfies PerProvider<Provider, 'oauth.notEnabled'>

const boundElsewhere = {
  'oauth.boundElsewhere.github': { en: 'this GitHub account is already bound to another user', zh: '该 GitHub 账号已绑定其他用户' },
  'oauth.boundElsewhere.wechat': { en: 'this WeChat account is already bound to another user', zh: '该微信账号已绑定其他用户' },
  'oauth.boundElsewhere.telegram': { en: 'this Telegram account is already bound to another user', zh: '该 Telegram 账号已绑定其他用户' },
} as const satisfies PerProvider<Provider, 'oauth.boundElsewhere'>

const unreachable = {
  'oauth.unreachable.github': { en: 'could not reach GitHub, try again later', zh: '无法连接 GitHub，请稍后重试' },
  'oauth.unreachable.wechat': { en: 'could not reach WeChat, try again later', zh: '无法连接微信服务器，请稍后重试' },
} as const satisfies PerProvider<'github' | 'wechat', 'oauth.unreachable'>

const unreadable = {
  'oauth.unreadable.github': {
    en: 'GitHub answered something unreadable (HTTP {status})',
    zh: 'GitHub 返回了无法识别的内容（HTTP {status}）',
  },
  'oauth.unreadable.wechat': {
    en: 'WeChat answered something unreadable (HTTP {status})',
    zh: '微信服务器返回了无法识别的内容（HTTP {status}）',
  },
} as const satisfies PerProvider<'github' | 'wechat', 'oauth.unreadable'>

export const oauth = {
  ...notEnabled,
  ...boundElsewhere,
  ...unreachable,
  ...unreadable,
  'oauth.stateMismatch': {
    en: 'the sign-in state is missing or does not match; start the GitHub sign-in again',
    zh: '登录状态缺失或不匹配，请重新发起 GitHub 登录',
  },
  'oauth.githubRefused': { en: 'GitHub refused the sign-in: {reason}', zh: 'GitHub 拒绝了此次登录：{reason}' },
  'oauth.githubNoToken': { en: 'GitHub refused the sign-in: it gave no access token', zh: 'GitHub 拒绝了此次登录：未返回访问令牌' },
  'oauth.githubNoAccount': { en: 'GitHub did not name the account: {reason}', zh: 'GitHub 未返回账号信息：{reason}' },
  'oauth.githubNoId': { en: 'GitHub did not name the account', zh: 'GitHub 未返回账号信息' },
  'oauth.wechatNoServer': { en: 'the administrator has not set the WeChat server address', zh: '管理员尚未设置微信服务器地址' },
  /** the WeChat login server's own refusal, passed on in its own words as the family's gateways do */
  'oauth.wechatSays': { en: '{reason}', zh: '{reason}' },
  'oauth.wechatCodeWrong': { en: 'the WeChat verification code is wrong or has expired', zh: '微信验证码错误或已过期' },
  'oauth.telegramNoToken': { en: 'the administrator has not set the Telegram bot token', zh: '管理员尚未设置 Telegram 机器人令牌' },
  'oauth.telegramUnverified': { en: 'the Telegram login could not be verified', zh: '无法验证此次 Telegram 登录' },
  'oauth.telegramExpired': {
    en: 'the Telegram login has expired, sign in with Telegram again',
    zh: 'Telegram 登录已过期，请重新使用 Telegram 登录',
  },
  'oauth.telegramUsed': {
    en: 'this Telegram login was already used, sign in with Telegram again',
    zh: '此次 Telegram 登录已被使用，请重新使用 Telegram 登录',
  },
  'oauth.bindStateWrong': {
    en: 'this bind was not started from your settings page or has expired, start it again there',
    zh: '此次绑定不是从你的设置页面发起的或已过期，请在设置页面重新发起',
  },
  /** not a sentence: the family's clients (and spec section 7) read the message 'bind' as "bound", in every language */
  'oauth.bind': { en: 'bind', zh: 'bind' },
} as const
