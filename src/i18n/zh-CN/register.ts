import type { registerWords } from '../en/register.ts'

/** Simplified Chinese words of the registration form (same keys as en/register.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof registerWords, string> = {
  'field.password2': '确认密码',
  'placeholder.password2': '再次输入密码',
  'placeholder.code': '邮件中的验证码',
  'register.title': '创建账户',
  'register.subtitle': '一个密钥，调用网关提供的所有模型。',
  'register.submit': '注册',
  'register.success': '注册成功',
  'register.sendCode': '发送验证码',
  'register.resendIn': '{n} 秒后可重发',
  'register.codeSent': '验证码已发送，请检查邮箱',
  'register.emailMissing': '请输入邮箱地址',
  'register.codeMissing': '请输入邮箱地址和验证码',
  'register.invitedBy': '将使用邀请码 {code}。',
  'register.haveAccount': '已有账户？',
  'register.toLogin': '登录',
  'register.closed': '本站已关闭密码注册。',
}

export default words
