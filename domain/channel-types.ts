/**
 * Channel types (spec section 3): the number, the spec's name and its Chinese name, the `owned_by`
 * slug of model lists, the wire format the relay speaks to it, the key format (spec section 5) and
 * the `other` an empty one gets. The table is in the order the channel form lists the types. The
 * preset model lists live in channel-models.ts (the server's; the console reads them from
 * GET /api/models).
 */

/** The wire format of a channel type; null for the types the /v1 relay does not speak (task platforms among them). */
export type ChannelFormat = 'openai' | 'azure' | 'anthropic' | 'gemini' | null

export interface ChannelType {
  type: number
  /** the name spec section 3 gives */
  name: string
  /** the name the Chinese console shows */
  zh: string
  /** owned_by of the OpenAI-style model objects */
  owner: string
  format: ChannelFormat
  /** the key when it is more than one secret (spec section 5) */
  keyFormat?: string
  /** what an empty `other` becomes on save */
  defaultOther?: string
  /** an image, music or video platform: its preset models fill an empty model list when it is chosen */
  media?: true
}

export const CHANNEL_TYPE = {
  openai: 1,
  imageRelay: 2,
  azure: 3,
  ollama: 4,
  imageRelayPlus: 5,
  custom: 8,
  palm: 11,
  anthropic: 14,
  baidu: 15,
  zhipu: 16,
  ali: 17,
  xunfei: 18,
  ai360: 19,
  aiproxyLibrary: 21,
  fastgpt: 22,
  tencent: 23,
  gemini: 24,
  moonshot: 25,
  zhipuV4: 26,
  lingyiwanwu: 31,
  aws: 33,
  cohere: 34,
  minimax: 35,
  suno: 41,
  luma: 43,
  viggle: 45,
  runway: 47,
  udio: 49,
  ideogram: 51,
  kling: 53,
  pika: 55,
  lumaV2: 57,
  pixverse: 58,
  replicate: 59,
  runwayml: 61,
  higgsfield: 63,
  riffusion: 64,
  bfl: 65,
  fal: 66,
} as const

/** The Azure API version an empty `other` means: the form fills it in and the relay falls back to it. */
export const AZURE_API_VERSION = '2023-06-01-preview'

type Extra = Pick<ChannelType, 'keyFormat' | 'defaultOther' | 'media'>

function t(type: number, name: string, zh: string, owner: string, format: ChannelFormat, extra: Extra = {}): ChannelType {
  return { type, name, zh, owner, format, ...extra }
}

const media = { media: true } as const

/** In the order the channel form lists them. */
export const CHANNEL_TYPES: readonly ChannelType[] = [
  t(1, 'OpenAI', 'OpenAI', 'openai', 'openai'),
  t(2, 'image-relay proxy', '图像中继代理', 'midjourney', null, media),
  t(5, 'image-relay proxy plus', '图像中继代理 Plus', 'midjourney', null, media),
  t(4, 'Ollama', 'Ollama', 'ollama', 'openai'),
  t(14, 'Anthropic Claude', 'Anthropic Claude', 'anthropic', 'anthropic'),
  t(33, 'AWS Claude', 'AWS Claude', 'aws', null, { keyFormat: 'Ak|Sk|Region' }),
  t(3, 'Azure OpenAI', 'Azure OpenAI', 'azure', 'azure', { defaultOther: AZURE_API_VERSION }),
  t(24, 'Google Gemini', 'Google Gemini', 'google', 'gemini'),
  t(34, 'Cohere', 'Cohere', 'cohere', 'openai'),
  t(15, 'Baidu', '百度文心千帆', 'baidu', 'openai', { keyFormat: 'APIKey|SecretKey' }),
  t(17, 'Alibaba', '阿里通义千问', 'ali', 'openai'),
  t(18, 'iFlytek', '讯飞星火认知', 'xunfei', 'openai', { keyFormat: 'APPID|APISecret|APIKey', defaultOther: 'v2.1' }),
  t(16, 'Zhipu ChatGLM', '智谱 ChatGLM', 'zhipu', 'openai'),
  t(26, 'Zhipu GLM-4V', '智谱 GLM-4V', 'zhipu', 'openai'),
  t(11, 'PaLM2', 'Google PaLM2', 'google', null),
  t(25, 'Moonshot', 'Moonshot', 'moonshot', 'openai'),
  t(19, '360', '360 智脑', 'ai360', 'openai'),
  t(23, 'Tencent', '腾讯混元', 'tencent', 'openai', { keyFormat: 'AppId|SecretId|SecretKey' }),
  t(31, 'Yi', '零一万物', 'lingyiwanwu', 'openai'),
  t(35, 'MiniMax', 'MiniMax', 'minimax', 'openai'),
  t(8, 'custom', '自定义渠道', 'custom', 'openai'),
  t(22, 'FastGPT knowledge base', '知识库：FastGPT', 'fastgpt', 'openai', { keyFormat: 'APIKey-AppId' }),
  t(21, 'AI Proxy knowledge base', '知识库：AI Proxy', 'aiproxy', null),
  t(41, 'Suno', 'Suno', 'suno', null, media),
  t(43, 'Luma', 'Luma', 'luma', null, media),
  t(45, 'Viggle', 'Viggle', 'viggle', null, media),
  t(47, 'Runway', 'Runway', 'runway', null, media),
  t(49, 'Udio', 'Udio', 'udio', null, media),
  t(51, 'Ideogram', 'Ideogram', 'ideogram', null, media),
  t(53, 'Kling', '可灵 Kling', 'kling', null, media),
  t(55, 'Pika', 'Pika', 'pika', null, media),
  t(57, 'LumaV2', 'LumaV2', 'luma', null, media),
  t(58, 'Pixverse', 'Pixverse', 'pixverse', null, media),
  t(59, 'Replicate', 'Replicate', 'replicate', null, media),
  t(61, 'RunwayML', 'RunwayML', 'runwayml', null, media),
  t(63, 'HiggsField', 'HiggsField', 'higgsfield', null, media),
  t(64, 'Riffusion', 'Riffusion', 'riffusion', null, { ...media, keyFormat: 'refresh_token||apikey' }),
  t(65, 'bfl.ai', 'bfl.ai', 'bfl', null, media),
  t(66, 'fal.ai', 'fal.ai', 'fal', null, media),
]

const BY_NUMBER = new Map(CHANNEL_TYPES.map((c) => [c.type, c]))

export function channelType(type: number): ChannelType | undefined {
  return BY_NUMBER.get(type)
}

/** The name of a type number in the console's language; 'unknown' for a number the spec does not list. */
export function channelTypeName(type: number, locale: 'en' | 'zh' = 'en'): string {
  const c = BY_NUMBER.get(type)
  if (locale === 'zh') return c?.zh ?? '未知'
  return c?.name ?? 'unknown'
}

/** owned_by of a type's models; 'custom' for a type the spec does not list. */
export const channelOwner = (type: number): string => BY_NUMBER.get(type)?.owner ?? 'custom'

/** An empty `other` of Azure or iFlytek becomes the type's default (spec section 5); anything else stays. */
export function otherWithDefault(type: number, other: string): string {
  return other === '' ? (BY_NUMBER.get(type)?.defaultOther ?? '') : other
}

/** Fetching the upstream model list works for the OpenAI type only (spec section 5). */
export const canFetchModels = (type: number): boolean => type === CHANNEL_TYPE.openai
