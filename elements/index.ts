/**
 * Tollgate's public surface: importing this module registers every element
 * (<tollgate-console>, <tollgate-login>, <tollgate-register>, <tollgate-reset>,
 * <tollgate-reset-confirm>) and exports configure(), signIn(), signOut() and the types.
 */
export { TollgateConsole } from './console.ts'
export { TollgateLogin } from './login.ts'
export { TollgateRegister } from './register.ts'
export { TollgateReset } from './reset.ts'
export { TollgateResetConfirm } from './reset-confirm.ts'
export { TollgateTokens } from './tokens.ts'
export { TollgateLogs } from './logs.ts'
export { TollgateDashboard } from './dashboard.ts'
export { TollgateChannels } from './channels.ts'
export { TollgateUsers } from './users.ts'
export { TollgateRedemptions } from './redemptions.ts'
export { TollgateSettings } from './settings.ts'
export { TollgateTopup } from './topup.ts'
export { TollgateTasks } from './tasks.ts'
export { TollgatePricing } from './pricing.ts'
export { configure, signIn, signOut } from './config.ts'
export type { TollgateConfig, EmbedCredential, User, PublicStatus } from './config.ts'
export type {
  TollgateEventDetails,
  TollgateEventName,
  TollgateLoginEvent,
  TollgateLogoutEvent,
  TollgateSessionExpiredEvent,
  TollgateNavigateEvent,
  TollgateErrorEvent,
  TollgateTopupEvent,
} from './events.ts'
