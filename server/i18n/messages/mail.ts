/** Messages of the e-mail calls (verification, password reset, e-mail binding) and the mails themselves. */
export const mail = {
  'mail.notAddress': { en: '{field} is not a valid e-mail address', zh: '{field} 不是有效的邮箱地址' },
  'mail.signInToBind': { en: 'sign in first to bind an e-mail address', zh: '请先登录，再绑定邮箱' },
  'mail.domainNotAllowed': {
    en: 'the administrator only allows e-mail addresses of these domains: {domains}',
    zh: '管理员只允许使用以下域名的邮箱：{domains}',
  },
  'mail.noDomainAllowed': { en: 'the administrator allows no e-mail domain yet', zh: '管理员尚未允许任何邮箱域名' },
  'mail.aliasPlus': { en: 'e-mail aliases (addresses with "+") are not allowed', zh: '不允许使用邮箱别名（含“+”的地址）' },
  'mail.aliasDots': {
    en: 'dots in a {domain} address make an alias of the same mailbox and are not allowed',
    zh: '{domain} 邮箱地址中的点号会构成同一邮箱的别名，不允许使用',
  },
  'mail.emailUsed': { en: 'this e-mail address is already used by an account', zh: '该邮箱地址已被某个账号使用' },
  'mail.emailUsedByOther': { en: 'this e-mail address is already used by another account', zh: '该邮箱地址已被其他账号使用' },
  'mail.noAccount': { en: 'no account uses this e-mail address', zh: '没有账号使用该邮箱地址' },
  'mail.resetLinkWrong': { en: 'the reset link is wrong or has expired', zh: '重置链接错误或已过期' },
  'mail.codeSent': { en: 'verification code sent', zh: '验证码已发送' },
  'mail.resetSent': { en: 'reset e-mail sent', zh: '重置邮件已发送' },
  'mail.passwordReset': { en: 'password reset', zh: '密码已重置' },
  'mail.notSent': { en: 'the e-mail could not be sent: {reason}', zh: '邮件发送失败：{reason}' },
  'mail.notSentNoServer': {
    en: 'the e-mail could not be sent: the administrator has not configured an SMTP server',
    zh: '邮件发送失败：管理员尚未配置 SMTP 服务器',
  },
  'mail.notSentNoSender': {
    en: 'the e-mail could not be sent: the administrator has not set the SMTP sender address',
    zh: '邮件发送失败：管理员尚未设置 SMTP 发件地址',
  },
  // the mails
  'mail.verifySubject': { en: '{system} e-mail verification', zh: '{system} 邮箱验证' },
  'mail.verifyCode': { en: 'Your verification code is: {code}', zh: '您的验证码是：{code}' },
  'mail.resetSubject': { en: '{system} password reset', zh: '{system} 密码重置' },
  'mail.resetOpenLink': { en: 'Open this link to reset your password:', zh: '请打开以下链接重置密码：' },
  'mail.validTenMinutes': { en: 'It is valid for 10 minutes.', zh: '10 分钟内有效。' },
  'mail.ignoreIfNotYou': { en: 'If you did not ask for it, ignore this e-mail.', zh: '如果不是您本人的操作，请忽略本邮件。' },
} as const
