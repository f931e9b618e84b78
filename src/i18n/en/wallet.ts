import { addWords } from '../words.ts'

/** English words of the wallet (top-up). */
export const walletWords = {
  'wallet.description': 'Your balance, redemption codes and online top-up.',
  'wallet.signedOutTitle': 'Sign in to top up',
  'wallet.signedOutBody': 'Your wallet holds the quota your tokens spend.',
  'wallet.used': 'Used',
  'wallet.requests': 'Requests',
  'wallet.redeemTitle': 'Redeem a code',
  'wallet.redeemLead': 'A redemption code adds its quota to your balance at once. Each code works once.',
  'wallet.code': 'Redemption code',
  'wallet.codePlaceholder': 'Paste the code',
  'wallet.redeem': 'Redeem',
  'wallet.redeemed': 'redeemed successfully',
  'wallet.added': 'Added {quota} to your balance.',
  'wallet.buyCode': 'Buy a code',
  'wallet.noTopupLink': 'super admin has not set top-up link',
  'wallet.onlineTitle': 'Top up online',
  'wallet.onlineLead': 'Pay with Alipay or WeChat Pay. At least ${min} per top-up.',
  'wallet.amount': 'Top-up amount',
  'wallet.amountHint': 'Adds {quota} to your balance',
  'wallet.payable': 'Amount to pay:',
  'wallet.yuanSign': '¥',
  'wallet.cny': 'Chinese yuan (CNY)',
  'wallet.onlineOff': 'Not available: admin has not enabled online top-up',
  'wallet.method': 'Payment method',
  'wallet.alipay': 'Alipay',
  'wallet.wechatPay': 'WeChat Pay',
  'wallet.topup': 'Top up',
  'wallet.notEnabled': 'admin has not enabled online top-up',
  'wallet.confirmTitle': 'Confirm the top-up',
  'wallet.confirmBody': 'The payment page opens next. Your balance grows once the payment is confirmed.',
  'wallet.pay': 'Go to payment',
  'problem.topup.codeMissing': 'please enter redemption code',
  'problem.topup.belowMinimum': 'top-up amount cannot be less than {min}',
}

addWords('wallet', walletWords, () => import('../zh-CN/wallet.ts'))
