import type { channelsWords } from '../en/channels.ts'

/** Simplified Chinese words of the channels screen (same keys as en/channels.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof channelsWords, string> = {
  'channels.tested': '渠道 {name} 测试成功，耗时 {seconds} 秒。',
  'channels.testAllStarted': '已成功开始测试所有渠道，请刷新页面查看结果。',
  'channels.balanceUpdated': '渠道余额更新成功！',
  'channels.balancesUpdated': '已更新完毕所有已启用渠道余额！',
  'channels.fixed': '已修复 {n} 个渠道的能力表',
  'channels.deletedMany': '已删除 {n} 个渠道',
  'channels.deletedDisabled': '已删除 {n} 个禁用渠道',
  'channels.copied': '渠道复制成功',
  'channels.created': '{n, plural, =1 {渠道创建成功！} other {已创建 # 个渠道}}',
  'channels.updated': '渠道更新成功！',
  'channels.modelsExist': '某些模型已存在！',
  'channels.fetched': '已获取 {n} 个模型',
  'channels.error.resubmit': '提交失败，请勿重复提交！',
  'channels.error.openaiOnly': '仅支持 OpenAI 接口格式',
  'channels.error.fetchFailed': '获取模型列表失败',
  'channels.error.keyFirst': '请先填写密钥',
  'channels.error.copyFailed': '渠道复制失败',
  'channels.error.selectFirst': '请先选择要删除的渠道！',
  'problem.channel.nameAndKey': '请填写渠道名称和渠道密钥！',
  'problem.channel.oneModel': '请至少选择一个模型！',
  'problem.channel.modelMappingJson': '模型重定向必须是合法的 JSON 格式！',
  'problem.channel.modelMappingValue': '模型重定向的每一项都必须对应一个模型名称（{name} 不是）',
  'problem.channel.statusMappingJson': '状态码复写必须是合法的 JSON 格式！',
  'problem.channel.statusMappingCode': '状态码复写：{code} 不是 HTTP 状态码',
  'problem.channel.baseUrlInvalid': '代理地址必须是 http 或 https 地址',
}

export default words
