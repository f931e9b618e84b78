/**
 * The server's words for the problems the domain rules report (domain/problem.ts). A field rule's
 * text starts with the field's name ({field}); the others are whole sentences.
 */
import type { ProblemId } from '../../../domain/problem.ts'

type ProblemWords = { readonly [K in ProblemId as `problem.${K}`]: { readonly en: string; readonly zh: string } }

export const problems = {
  'problem.account.credentialsMissing': { en: 'please enter username and password', zh: '请输入用户名和密码' },
  'problem.account.passwordTooShort': { en: '{field} must be at least {min} characters', zh: '{field} 至少需要 {min} 个字符' },
  'problem.account.passwordsDiffer': { en: 'the two passwords differ', zh: '两次输入的密码不一致' },
  'problem.account.transferTooSmall': { en: 'the transfer amount is at least {min}', zh: '划转额度最低为 {min}' },
  'problem.token.nameMissing': { en: '{field} is required', zh: '{field} 不能为空' },
  'problem.token.nameTooLong': { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  'problem.token.expiryInvalid': {
    en: '{field} must be -1 (never) or a time in unix seconds',
    zh: '{field} 必须是 -1（永不过期）或以秒为单位的 Unix 时间',
  },
  'problem.token.quotaInvalid': { en: '{field} must be a whole number from 0 to {max}', zh: '{field} 必须是 0 到 {max} 之间的整数' },
  'problem.token.modelLimitsTooLong': { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  'problem.token.modelLimitsEmpty': {
    en: 'choose at least one model, or turn the model limit off',
    zh: '请至少选择一个模型，或关闭模型限制',
  },
  'problem.redemption.nameMissing': { en: '{field} is required', zh: '{field} 不能为空' },
  'problem.redemption.nameTooLong': { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  'problem.redemption.quotaInvalid': { en: '{field} must be a whole number from 1 to {max}', zh: '{field} 必须是 1 到 {max} 之间的整数' },
  'problem.redemption.countOutOfRange': {
    en: '{field} must be a whole number from {min} to {max}',
    zh: '{field} 必须是 {min} 到 {max} 之间的整数',
  },
  'problem.channel.nameAndKey': { en: 'please fill in the channel name and key', zh: '请填写渠道名称和密钥' },
  'problem.channel.oneModel': { en: 'choose at least one model', zh: '请至少选择一个模型' },
  'problem.channel.modelMappingJson': { en: '{field} must be empty or a valid JSON object', zh: '{field} 必须为空或合法的 JSON 对象' },
  'problem.channel.modelMappingValue': {
    en: '{field} maps {name} to something other than a model name',
    zh: '{field} 把 {name} 映射到了非模型名称的值',
  },
  'problem.channel.statusMappingJson': { en: '{field} must be empty or a valid JSON object', zh: '{field} 必须为空或合法的 JSON 对象' },
  'problem.channel.statusMappingCode': {
    en: '{field} has {code}, which is not an HTTP status code',
    zh: '{field} 中的 {code} 不是 HTTP 状态码',
  },
  'problem.channel.baseUrlInvalid': { en: '{field} must be an http or https address', zh: '{field} 必须是 http 或 https 地址' },
  'problem.topup.codeMissing': { en: 'please enter redemption code', zh: '请输入兑换码' },
  'problem.topup.belowMinimum': { en: 'top-up amount cannot be less than {min}', zh: '充值数量不能小于 {min}' },
  'problem.option.tooLong': { en: '{key} is longer than 1 MB', zh: '{key} 超过了 1 MB' },
  'problem.option.notSwitch': { en: '{key} must be true or false', zh: '{key} 必须是 true 或 false' },
  'problem.option.needsOther': { en: '{key} cannot be turned on before {other} is filled in', zh: '请先填写 {other}，再开启 {key}' },
  'problem.option.integerMin': { en: '{key} must be an integer of at least {min}', zh: '{key} 必须是不小于 {min} 的整数' },
  'problem.option.numberMin': { en: '{key} must be a number of at least {min}', zh: '{key} 必须是不小于 {min} 的数字' },
  'problem.option.numberAbove': { en: '{key} must be a number greater than {min}', zh: '{key} 必须是大于 {min} 的数字' },
  'problem.option.numberMax': { en: '{key} must be at most {max}', zh: '{key} 不能大于 {max}' },
  'problem.option.notJson': { en: '{key} is not a legal JSON string', zh: '{key} 不是合法的 JSON 字符串' },
  'problem.option.topupRatioNotJson': { en: 'top-up group ratio is not a legal JSON string', zh: '充值分组倍率不是合法的 JSON 字符串' },
  'problem.option.notJsonObject': {
    en: '{key} is not a legal JSON string: it must be a JSON object',
    zh: '{key} 不是合法的 JSON 字符串：必须是 JSON 对象',
  },
  'problem.option.ratioNotNumber': {
    en: '{key} is not a legal JSON string: the value of {name} must be a number of at least 0',
    zh: '{key} 不是合法的 JSON 字符串：{name} 的值必须是不小于 0 的数字',
  },
  'problem.option.notOrigin': {
    en: '{key}: {entry} is not a site origin like https://shop.example (scheme, host and port only)',
    zh: '{key}：{entry} 不是形如 https://shop.example 的网站来源（只含协议、主机和端口）',
  },
  'problem.option.notChoice': { en: '{key} must be one of {choices}', zh: '{key} 必须是以下之一：{choices}' },
} as const satisfies ProblemWords
