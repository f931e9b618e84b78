import type { MessageKey } from './en.ts'
import common from './zh-CN/common.ts'
import login from './zh-CN/login.ts'
import register from './zh-CN/register.ts'
import reset from './zh-CN/reset.ts'
import console from './zh-CN/console.ts'
import wallet from './zh-CN/wallet.ts'
import pricing from './zh-CN/pricing.ts'
import tokens from './zh-CN/tokens.ts'
import logs from './zh-CN/logs.ts'
import dashboard from './zh-CN/dashboard.ts'
import channels from './zh-CN/channels.ts'
import users from './zh-CN/users.ts'
import redemptions from './zh-CN/redemptions.ts'
import settings from './zh-CN/settings.ts'

/** Every Simplified Chinese word (the parts of src/i18n/zh-CN/), for tests: the same keys as en.ts. */
export const zhCN: Record<MessageKey, string> = {
  ...common,
  ...login,
  ...register,
  ...reset,
  ...console,
  ...wallet,
  ...pricing,
  ...tokens,
  ...logs,
  ...dashboard,
  ...channels,
  ...users,
  ...redemptions,
  ...settings,
}
