import type { loginWords } from '../en/login.ts'

/** Simplified Chinese words of the sign-in box and the OAuth return (same keys as en/login.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof loginWords, string> = {
  'placeholder.loginUsername': '用户名或邮箱',
  'placeholder.loginPassword': '密码',
  'login.title': '登录',
  'login.subtitle': '欢迎回来。登录后管理令牌、额度与用量。',
  'login.submit': '登录',
  'login.signedInTitle': '已登录',
  'login.signedInAs': '当前用户',
  'login.defaultPassword': '您正在使用超级管理员的默认密码，请立即在设置中修改',
  'login.expired': '未登录或登录已过期，请重新登录',
  'login.noAccount': '还没有账户？',
  'login.toRegister': '注册',
  'login.forgot': '忘记密码？',
  'login.toReset': '重置密码',
  'login.otherMethods': '或使用以下方式登录',
  'login.github': 'GitHub',
  'login.wechat': '微信',
  'login.passwordOff': '本站已关闭密码登录，请使用其他方式登录。',
  'wechat.title': '微信扫码登录',
  'wechat.submit': '登录',
  'wechat.missing': '请输入验证码',
  'oauth.bound': '绑定成功',
  'oauth.working': '正在登录…',
  'oauth.missing': '登录链接不完整，请重新发起登录',
}

export default words
