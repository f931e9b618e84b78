/** Messages of the token calls (spec section 8 keeps 'operation completed successfully' and 'token updated successfully'). */
export const tokens = {
  'token.notFound': { en: 'token not found', zh: '令牌不存在' },
  'token.created': { en: 'token created', zh: '令牌已创建' },
  'token.updated': { en: 'token updated successfully', zh: '令牌更新成功' },
  'token.statusChanged': { en: 'operation completed successfully', zh: '操作成功完成' },
  'token.deleted': { en: 'token deleted', zh: '令牌已删除' },
  'token.statusInvalid': { en: '{field} must be 1 (enabled) or 2 (disabled)', zh: '{field} 只能是 1（启用）或 2（禁用）' },
  'token.expiredCannotEnable': {
    en: 'the token has expired and cannot be enabled; change its expiry time or set it to never expire first',
    zh: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  },
  'token.exhaustedCannotEnable': {
    en: 'the token quota is used up and cannot be enabled; raise its remaining quota or make it unlimited first',
    zh: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
  },
} as const
