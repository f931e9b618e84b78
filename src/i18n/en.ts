import { commonWords } from './en/common.ts'
import { loginWords } from './en/login.ts'
import { registerWords } from './en/register.ts'
import { resetWords } from './en/reset.ts'
import { consoleWords } from './en/console.ts'
import { walletWords } from './en/wallet.ts'
import { pricingWords } from './en/pricing.ts'
import { tokensWords } from './en/tokens.ts'
import { logsWords } from './en/logs.ts'
import { dashboardWords } from './en/dashboard.ts'
import { channelsWords } from './en/channels.ts'
import { usersWords } from './en/users.ts'
import { redemptionsWords } from './en/redemptions.ts'
import { settingsWords } from './en/settings.ts'

/**
 * Every English word, for the type of a message key and for tests. Every message the spec quotes
 * is in these parts verbatim; keys are stable ids. The app never imports this module: each screen
 * imports its own part (src/i18n/en/<part>.ts), so an element ships the words it shows, and each
 * part's Chinese twin (src/i18n/zh-CN/<part>.ts, same keys: the type check enforces it) loads only
 * when Chinese is wanted.
 */
export const en = {
  ...commonWords,
  ...loginWords,
  ...registerWords,
  ...resetWords,
  ...consoleWords,
  ...walletWords,
  ...pricingWords,
  ...tokensWords,
  ...logsWords,
  ...dashboardWords,
  ...channelsWords,
  ...usersWords,
  ...redemptionsWords,
  ...settingsWords,
}

export type MessageKey = keyof typeof en
