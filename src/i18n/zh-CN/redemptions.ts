import type { redemptionsWords } from '../en/redemptions.ts'

/** Simplified Chinese words of the redemption codes screen (same keys as en/redemptions.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof redemptionsWords, string> = {
  'redemptions.created': '兑换码创建成功！',
  'redemptions.updated': '兑换码更新成功！',
  'redemptions.selectAtLeastOne': '请至少选择一个',
  'problem.redemption.nameMissing': '请输入名称',
  'problem.redemption.nameTooLong': '名称不能超过 {max} 个字符',
  'problem.redemption.quotaInvalid': '额度必须是不小于 1 的整数',
  'problem.redemption.countOutOfRange': '生成数量必须在 {min} 到 {max} 之间',
}

export default words
