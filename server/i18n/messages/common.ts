/** Messages of the HTTP layer: sign-in state, roles, rate limits, bodies and fields. */
export const common = {
  'auth.notLoggedIn': { en: 'not logged in or login expired, please log in again', zh: '未登录或登录已过期，请重新登录' },
  'auth.disabled': { en: 'this account has been disabled', zh: '该账号已被禁用' },
  'auth.forbidden': { en: 'permission denied: your role cannot do this', zh: '权限不足：你的角色不能执行此操作' },
  'rate.tooMany': { en: 'too many requests, try again later', zh: '请求过于频繁，请稍后再试' },
  'server.internal': { en: 'server internal error', zh: '服务器内部错误' },
  'api.noSuchCall': { en: 'no such call: {method} {path}', zh: '没有这个接口：{method} {path}' },
  'body.notJson': { en: 'request body is not valid JSON', zh: '请求体不是合法的 JSON' },
  'body.notObject': { en: 'request body must be a JSON object', zh: '请求体必须是一个 JSON 对象' },
  'body.tooLarge': { en: 'request body is too large', zh: '请求体过大' },
  'field.type': { en: '{field} must be {expected}', zh: '{field} 的类型必须是 {expected}' },
  'field.maxChars': { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  'field.max': { en: '{field} must be at most {max}', zh: '{field} 不能大于 {max}' },
  'field.minChars': { en: '{field} must be at least {min} characters', zh: '{field} 至少需要 {min} 个字符' },
  'field.min': { en: '{field} must be at least {min}', zh: '{field} 不能小于 {min}' },
  'field.invalid': { en: '{field} {detail}', zh: '{field} 的值无效' },
} as const
