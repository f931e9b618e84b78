import type { resetWords } from '../en/reset.ts'

/** Simplified Chinese words of the password reset forms (same keys as en/reset.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof resetWords, string> = {
  'reset.title': '重置密码',
  'reset.subtitle': '输入账户的邮箱地址，我们会发送一封重置密码的邮件。',
  'reset.submit': '发送重置邮件',
  'reset.resendIn': '{n} 秒后可重发',
  'reset.sent': '重置邮件已发送，请检查邮箱',
  'reset.emailMissing': '请输入邮箱地址',
  'reset.back': '返回登录',
  'resetConfirm.title': '获取新密码',
  'resetConfirm.subtitle': '重置 {email} 的密码。新密码只显示一次，请妥善保存。',
  'resetConfirm.submit': '重置密码',
  'resetConfirm.newPassword': '新密码',
  'resetConfirm.copied': '新密码已复制到剪贴板',
  'resetConfirm.invalid': '重置链接不完整，请重新申请重置邮件',
  'resetConfirm.done': '密码已重置。请用新密码登录，并在设置中修改。',
  'resetConfirm.toLogin': '去登录',
}

export default words
