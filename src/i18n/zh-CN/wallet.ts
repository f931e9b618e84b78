import type { walletWords } from '../en/wallet.ts'

/** Simplified Chinese words of the wallet (top-up) (same keys as en/wallet.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof walletWords, string> = {
  'wallet.description': '你的余额、兑换码和在线充值。',
  'wallet.signedOutTitle': '登录后充值',
  'wallet.signedOutBody': '钱包里是令牌消耗的额度。',
  'wallet.used': '已用',
  'wallet.requests': '请求次数',
  'wallet.redeemTitle': '兑换码充值',
  'wallet.redeemLead': '兑换码的额度会立即加到你的余额中，每个兑换码只能使用一次。',
  'wallet.code': '兑换码',
  'wallet.codePlaceholder': '粘贴兑换码',
  'wallet.redeem': '兑换',
  'wallet.redeemed': '兑换成功！',
  'wallet.added': '已为你的余额增加 {quota}。',
  'wallet.buyCode': '获取兑换码',
  'wallet.noTopupLink': '超级管理员未设置充值链接！',
  'wallet.onlineTitle': '在线充值',
  'wallet.onlineLead': '使用支付宝或微信支付，每次至少充值 ${min}。',
  'wallet.amount': '充值数量',
  'wallet.amountHint': '将为余额增加 {quota}',
  'wallet.payable': '实付金额：',
  'wallet.yuanSign': '¥',
  'wallet.cny': '人民币（元）',
  'wallet.onlineOff': '暂不可用：管理员未开启在线充值',
  'wallet.method': '支付方式',
  'wallet.alipay': '支付宝',
  'wallet.wechatPay': '微信支付',
  'wallet.topup': '充值',
  'wallet.notEnabled': '管理员未开启在线充值！',
  'wallet.confirmTitle': '确认充值',
  'wallet.confirmBody': '接下来将打开支付页面，支付确认后余额即会增加。',
  'wallet.pay': '前往支付',
  'problem.topup.codeMissing': '请输入兑换码！',
  'problem.topup.belowMinimum': '充值数量不能小于 {min}',
}

export default words
