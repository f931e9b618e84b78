/** Messages of the HTTP layer: sign-in state, roles, rate limits, bodies and fields. */
export const common = {
  'auth.notLoggedIn': { en: 'not logged in or login expired, please log in again', zh: '未登录或登录已过期，请重新登录' },
  'auth.disabled': { en: 'this account has been disabled', zh: '该账号已被禁用' },
  'auth.originNotAllowed': {
    en: "This site is not allowed to sign in to this gateway. Ask the gateway's administrator to add it to the allowed sites.",
    zh: '此网站不允许登录到本网关。请联系网关管理员将其加入允许的网站。',
  },
  'auth.crossSite': { en: 'request refused: it came from another site', zh: '请求被拒绝：它来自其他网站' },
  'auth.clientHeader': {
    en: 'request refused: this call must come from the console (X-Tollgate-Client header missing)',
    zh: '请求被拒绝：此调用必须来自控制台（缺少 X-Tollgate-Client 请求头）',
  },
  'body.notJsonType': { en: 'request body must be sent as application/json', zh: '请求体必须以 application/json 发送' },
  'auth.forbidden': { en: 'permission denied: your role cannot do this', zh: '权限不足：你的角色不能执行此操作' },
  'rate.loginWait': {
    en: 'too many failed sign-ins, try again in {seconds} seconds',
    zh: '登录失败次数过多，请在 {seconds} 秒后重试',
  },
  'rate.tooMany': { en: 'too many requests, try again later', zh: '请求过于频繁，请稍后再试' },
  'server.internal': { en: 'server internal error', zh: '服务器内部错误' },
  'api.noSuchCall': { en: 'no such call: {method} {path}', zh: '没有这个接口：{method} {path}' },
  'body.notJson': { en: 'request body is not valid JSON', zh: '请求体不是合法的 JSON' },
  'body.notObject': { en: 'request body must be a JSON object', zh: '请求体必须是一个 JSON 对象' },
  'body.tooLarge': { en: 'request body is too large', zh: '请求体过大' },
  'field.nul': { en: '{field} must not contain a NUL character', zh: '{field} 不能包含 NUL 字符' },
  'field.type': { en: '{field} must be {expected}', zh: '{field} 的类型必须是 {expected}' },
  // the JSON types zod names, in the reader's words (the English keeps zod's own name)
  'field.type.number': { en: '{field} must be number', zh: '{field} 必须是数字' },
  'field.type.string': { en: '{field} must be string', zh: '{field} 必须是字符串' },
  'field.type.boolean': { en: '{field} must be boolean', zh: '{field} 必须是布尔值（true 或 false）' },
  'field.type.object': { en: '{field} must be object', zh: '{field} 必须是 JSON 对象' },
  'field.type.array': { en: '{field} must be array', zh: '{field} 必须是数组' },
  'field.maxChars': { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  'field.max': { en: '{field} must be at most {max}', zh: '{field} 不能大于 {max}' },
  'field.minChars': { en: '{field} must be at least {min} characters', zh: '{field} 至少需要 {min} 个字符' },
  'field.min': { en: '{field} must be at least {min}', zh: '{field} 不能小于 {min}' },
  'field.invalid': { en: '{field} {detail}', zh: '{field} 的值无效' },
} as const
