/**
 * Messages of the channel calls (list, edit, delete, test, balance, model list, account checks), of
 * the upstream calls they make, and of the reasons a channel was disabled automatically. The spec's
 * own wording (spec section 8) is kept verbatim.
 */
export const channels = {
  'channel.notFound': { en: 'channel not found, refresh and retry', zh: '渠道不存在，请刷新后重试' },
  'channel.created': { en: 'channel created', zh: '渠道已创建' },
  'channel.createdMany': { en: '{count} channels created', zh: '已创建 {count} 个渠道' },
  'channel.updated': { en: 'channel updated', zh: '渠道已更新' },
  'channel.deleted': { en: 'channel deleted', zh: '渠道已删除' },
  'channel.nothingSelected': { en: 'select channels to delete first', zh: '请先选择要删除的渠道' },
  'channel.tooManyEntries': { en: '{field} must list at most {max} entries', zh: '{field} 最多只能列出 {max} 项' },
  'channel.entryTooLong': { en: '{field} entries must be at most {max} characters', zh: '{field} 的每一项最多 {max} 个字符' },
  'channel.tooManyKeys': { en: '{field} must hold at most {max} keys, one per line', zh: '{field} 最多只能填写 {max} 个密钥，每行一个' },
  'channel.tooManyAbilities': {
    en: '{field} x group x keys would grant too many abilities at once',
    zh: '{field} × 分组 × 密钥的组合过多，一次无法全部写入',
  },
  'channel.openaiOnly': { en: 'only the OpenAI interface format is supported', zh: '仅支持 OpenAI 接口格式' },
  'channel.fetchModelsFailed': { en: 'fetching model list failed: {reason}', zh: '获取模型列表失败：{reason}' },
  'channel.testFailed': { en: 'channel test failed: {reason}', zh: '渠道测试失败：{reason}' },
  // why a test or a balance query failed (server/relay/channel-ops.ts); upstream text stays as it came
  'channel.upstreamStatus': { en: 'status {status}: {message}', zh: '上游返回状态 {status}：{message}' },
  'channel.test.unsupported': {
    en: 'channel test is not supported for this channel type ({type})',
    zh: '该渠道类型（{type}）不支持渠道测试',
  },
  'channel.test.misconfigured': { en: 'channel {id} is misconfigured: {message}', zh: '渠道 {id} 配置有误：{message}' },
  'channel.test.noBaseUrl': { en: 'this channel has no base URL', zh: '该渠道没有填写 base URL' },
  'channel.test.noAzureBaseUrl': {
    en: 'this Azure channel has no base URL (https://<resource>.openai.azure.com)',
    zh: '该 Azure 渠道没有填写 base URL（https://<resource>.openai.azure.com）',
  },
  'channel.test.unreachable': { en: 'the upstream could not be reached: {message}', zh: '无法连接上游：{message}' },
  'channel.test.unreadable': { en: 'the upstream answer could not be read: {message}', zh: '无法读取上游的回答：{message}' },
  'channel.test.noUsage': { en: 'the upstream answered without usage', zh: '上游的回答中没有用量（usage）' },
  'channel.test.crashed': { en: '{message}', zh: '测试出错：{message}' },
  'channel.balance.unsupported': {
    en: 'balance query is not supported for this channel type ({type})',
    zh: '该渠道类型（{type}）不支持查询余额',
  },
  'channel.balance.noTotals': {
    en: 'the upstream billing answer has no hard_limit_usd or total_usage',
    zh: '上游的账单回答中没有 hard_limit_usd 或 total_usage',
  },
  'channel.balance.queryFailed': { en: 'balance query failed: {message}', zh: '余额查询失败：{message}' },
  'channel.testAllRunning': { en: 'a test of all channels is already running', zh: '已有一次全部渠道测试正在进行' },
  'channel.balanceFailed': { en: 'channel balance not updated: {reason}', zh: '渠道余额未更新：{reason}' },
  'channel.checkUnknown': { en: '{field} must be one of {choices}', zh: '{field} 必须是以下之一：{choices}' },
  'channel.checkWrongType': { en: '{field} must be {type} for {act}', zh: '{act} 的 {field} 必须是 {type}' },
  'channel.checkFailed': { en: '{label} account check failed: {reason}', zh: '{label} 账号检查未通过：{reason}' },
  'channel.noBaseUrl': { en: 'the channel has no base_url', zh: '该渠道没有填写 base_url' },
  'channel.noKey': { en: 'the channel has no key', zh: '该渠道没有密钥' },
  'channel.noCredits': { en: 'no credits left', zh: '已没有剩余点数' },
  // why a channel was disabled automatically (server/lib/status-reason.ts); with channel.testFailed and channel.checkFailed
  'channel.disabled.tooSlow': {
    en: 'channel test took {seconds} s, over the {threshold} s threshold',
    zh: '渠道测试耗时 {seconds} 秒，超过了 {threshold} 秒的阈值',
  },
  'channel.disabled.noBalance': { en: 'no balance left', zh: '余额已用完' },
  'channel.disabled.upstreamError': { en: '{status}: {message}', zh: '上游返回错误 {status}：{message}' },
  'channel.disabled.proxyRefused': { en: 'image-relay proxy: {description}', zh: '图像中继代理：{description}' },
  'upstream.timeout': { en: 'no answer within {seconds} s', zh: '{seconds} 秒内没有应答' },
  'upstream.unreachable': { en: 'the upstream could not be reached ({reason})', zh: '无法连接上游（{reason}）' },
  'upstream.tooLarge': { en: 'the upstream reply is too large', zh: '上游的回复过大' },
  'upstream.status': { en: 'HTTP {status} {message}', zh: 'HTTP {status} {message}' },
  'upstream.silent': { en: 'upstream answered with status code {status}', zh: '上游未说明原因（状态码 {status}）' },
  'upstream.noModelList': { en: 'the upstream reply has no model list', zh: '上游的回复中没有模型列表' },
  // what the HTTP client says went wrong (server/lib/status-reason.ts: networkReason); its own text in the brackets
  'net.refused': { en: 'connection refused ({detail})', zh: '连接被拒绝（{detail}）' },
  'net.reset': { en: 'the connection was closed by the other side ({detail})', zh: '连接被对方关闭（{detail}）' },
  'net.noHost': { en: 'the host name could not be resolved ({detail})', zh: '无法解析主机名（{detail}）' },
  'net.timeout': { en: 'timed out ({detail})', zh: '连接超时（{detail}）' },
  'net.unreachable': { en: 'the network or the host is unreachable ({detail})', zh: '网络或主机不可达（{detail}）' },
  'net.tls': { en: 'the TLS connection failed ({detail})', zh: 'TLS 连接失败，请检查证书（{detail}）' },
  'net.badJson': { en: 'the answer is not valid JSON ({detail})', zh: '回答不是有效的 JSON（{detail}）' },
} as const
