import type { PublicStatus } from '../../api/types.ts'

/** The outside sign-in methods the public status enables (each needs its switch and its id). */
export function oauthMethods(status: PublicStatus | null): { github: boolean; wechat: boolean; telegram: boolean } {
  return {
    github: !!status?.github_oauth && !!status.github_client_id,
    wechat: !!status?.wechat_login,
    telegram: !!status?.telegram_oauth && !!status.telegram_bot_name,
  }
}
