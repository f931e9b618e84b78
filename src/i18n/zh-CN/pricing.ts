import type { pricingWords } from '../en/pricing.ts'

/** Simplified Chinese words of the model pricing (same keys as en/pricing.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof pricingWords, string> = {
  'pricing.description': '通过网关调用各模型的价格。',
  'pricing.groupSignedOut': '{group} 分组的价格（分组倍率 {ratio}），登录后可查看你所在分组的价格。',
  'pricing.groupSignedIn': '你所在分组 {group} 的价格（分组倍率 {ratio}）。',
  'pricing.search': '搜索模型',
  'pricing.allBilling': '全部计费类型',
  'pricing.perUsage': '按量计费',
  'pricing.perCall': '按次计费',
  'pricing.availableOnly': '只看我可用的',
  'pricing.col.available': '可用性',
  'pricing.col.model': '模型',
  'pricing.col.billing': '计费类型',
  'pricing.col.price': '价格',
  'pricing.available': '可用',
  'pricing.unavailable': '你的分组不可用',
  'pricing.copyName': '复制 {name}',
  'pricing.input': '提示',
  'pricing.completion': '补全',
  'pricing.unit1M': '/ 1M tokens',
  'pricing.unitCall': '每次',
  'pricing.quotaEquals': '= {quota} 额度',
  'pricing.ratios': '模型倍率 {model} · 补全倍率 {completion}',
  'pricing.count': '共 {total} 个模型，显示 {n} 个',
  'pricing.noMatch': '没有符合搜索和筛选条件的模型',
  'pricing.emptyTitle': '还没有定价的模型',
  'pricing.emptyBody': '管理员添加提供这些模型的渠道后，模型会显示在这里。',
}

export default words
