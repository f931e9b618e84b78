/** Messages of the wallet's online top-up (spec sections 7 and 8). */
export const wallet = {
  'wallet.notEnabled': { en: 'admin has not enabled online top-up', zh: '管理员未开启在线充值' },
  'wallet.noServerAddress': { en: 'the administrator has not set the server address', zh: '管理员尚未设置服务器地址' },
  'wallet.moneyTooLow': { en: 'the payable money is too low', zh: '应付金额过低' },
} as const
