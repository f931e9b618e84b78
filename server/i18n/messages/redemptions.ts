/** Messages of the redemption codes: the administrators' list and the wallet's redeem (spec sections 7 and 8). */
export const redemptions = {
  'redemption.notFound': { en: 'redemption code not found', zh: '兑换码不存在' },
  'redemption.created': { en: 'redemption created successfully', zh: '兑换码创建成功' },
  'redemption.updated': { en: 'redemption updated successfully', zh: '兑换码更新成功' },
  'redemption.usedKeepsStatus': {
    en: 'this redemption code has already been used; its status cannot change',
    zh: '该兑换码已被使用，不能再修改状态',
  },
  'redemption.onlyUnusedEditable': { en: 'only an unused, enabled redemption code can be edited', zh: '只能编辑未使用且已启用的兑换码' },
  'redemption.deleted': { en: 'redemption code deleted', zh: '兑换码已删除' },
  'redemption.invalid': { en: 'invalid redemption code', zh: '无效的兑换码' },
  'redemption.disabled': { en: 'this redemption code is disabled', zh: '该兑换码已被禁用' },
  'redemption.used': { en: 'this redemption code has already been used', zh: '该兑换码已被使用' },
  'redemption.redeemed': { en: 'redeemed successfully', zh: '兑换成功' },
  'redemption.statusValue': { en: '{field} must be 1 (enabled) or 2 (disabled)', zh: '{field} 必须是 1（启用）或 2（禁用）' },
} as const
