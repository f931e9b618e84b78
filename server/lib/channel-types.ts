/**
 * Channel types by number (spec section 3) with their display name, the `owned_by` slug shown in
 * model lists, and the built-in models that pre-fill the channel form. Types without built-in
 * models (custom, knowledge bases) take whatever the administrator types in.
 */

export interface ChannelType {
  type: number
  name: string
  /** owned_by of the OpenAI-style model objects */
  owner: string
  models: readonly string[]
}

export const CHANNEL_TYPE = {
  openai: 1,
  midjourney: 2,
  azure: 3,
  ollama: 4,
  midjourneyPlus: 5,
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

const OPENAI_CHAT = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-0125',
  'gpt-3.5-turbo-instruct',
  'gpt-4',
  'gpt-4-turbo',
  'gpt-4o',
  'gpt-4o-2024-08-06',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'o1',
  'o1-mini',
  'o3-mini',
]

const OPENAI = [
  ...OPENAI_CHAT,
  'text-embedding-ada-002',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-moderation-latest',
  'text-moderation-stable',
  'omni-moderation-latest',
  'dall-e-2',
  'dall-e-3',
  'whisper-1',
  'tts-1',
  'tts-1-hd',
]

const CLAUDE = [
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-20250219',
  'claude-3-opus-20240229',
]

/** Midjourney-proxy actions, billed per call as mj_<action> (see lib/ratios.ts). */
const MIDJOURNEY = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_modal',
  'mj_zoom',
  'mj_shorten',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
  'mj_inpaint',
  'mj_custom_zoom',
  'mj_describe',
  'mj_upscale',
  'swap_face',
  'mj_upload',
]

function t(type: number, name: string, owner: string, models: readonly string[] = []): ChannelType {
  return { type, name, owner, models }
}

/** In the order the channel form lists them. */
export const CHANNEL_TYPES: readonly ChannelType[] = [
  t(1, 'OpenAI', 'openai', OPENAI),
  t(2, 'Midjourney Proxy', 'midjourney', MIDJOURNEY),
  t(5, 'Midjourney Proxy Plus', 'midjourney', MIDJOURNEY),
  t(4, 'Ollama', 'ollama', ['llama3.1', 'llama3.2', 'qwen2.5', 'mistral', 'gemma2']),
  t(14, 'Anthropic Claude', 'anthropic', CLAUDE),
  t(33, 'AWS Claude', 'aws', CLAUDE),
  t(3, 'Azure OpenAI', 'azure', OPENAI_CHAT),
  t(24, 'Google Gemini', 'google', ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-2.0-flash', 'text-embedding-004']),
  t(34, 'Cohere', 'cohere', ['command-r', 'command-r-plus', 'command-r7b-12-2024']),
  t(15, 'Baidu Wenxin', 'baidu', ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K', 'Embedding-V1']),
  t(17, 'Alibaba Tongyi Qianwen', 'ali', ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-long', 'text-embedding-v1']),
  t(18, 'iFlytek Spark', 'xunfei', ['SparkDesk-v1.1', 'SparkDesk-v2.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0']),
  t(16, 'Zhipu ChatGLM', 'zhipu', ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite']),
  t(26, 'Zhipu GLM-4V', 'zhipu', ['glm-4', 'glm-4v', 'glm-4-plus', 'glm-4-flash', 'glm-3-turbo']),
  t(11, 'Google PaLM2', 'google', ['PaLM-2']),
  t(25, 'Moonshot', 'moonshot', ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k']),
  t(19, '360 Zhinao', 'ai360', ['360GPT_S2_V9', 'embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1']),
  t(23, 'Tencent Hunyuan', 'tencent', ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-pro', 'hunyuan-turbo']),
  t(31, 'Yi (01.AI)', 'lingyiwanwu', ['yi-large', 'yi-medium', 'yi-spark', 'yi-lightning']),
  t(35, 'MiniMax', 'minimax', ['abab6.5-chat', 'abab6.5s-chat', 'abab5.5-chat']),
  t(8, 'Custom', 'custom'),
  t(22, 'FastGPT knowledge base', 'fastgpt'),
  t(21, 'AI Proxy knowledge base', 'aiproxy'),
  t(41, 'Suno', 'suno', ['suno_music', 'suno_lyrics', 'chirp-v3-0', 'chirp-v3-5', 'chirp-v4']),
  t(43, 'Luma', 'luma', ['luma_generate', 'luma_extend']),
  t(45, 'Viggle', 'viggle', ['vg_generate', 'vg_up_image', 'vg_up_video', 'vg_template']),
  t(47, 'Runway', 'runway', [
    'runway_gen2',
    'runway_gen3_5',
    'runway_gen3_10',
    'runway_gen3_fast_5',
    'runway_gen3_fast_10',
    'runway_gen3_turbo_5',
    'runway_gen3_turbo_10',
    'runway_file',
  ]),
  t(49, 'Udio', 'udio', ['udio_music']),
  t(51, 'Ideogram', 'ideogram', [
    'ideo_gen_V_1',
    'ideo_gen_V_1_TURBO',
    'ideo_gen_V_2',
    'ideo_gen_V_2_TURBO',
    'ideo_remix_V_1',
    'ideo_remix_V_1_TURBO',
    'ideo_remix_V_2',
    'ideo_remix_V_2_TURBO',
    'ideo_describe',
    'ideo_upscale',
  ]),
  t(53, 'Kling', 'kling', [
    'kling-v1_images',
    'kling-v1_videos_std_5',
    'kling-v1_videos_std_10',
    'kling-v1_videos_pro_5',
    'kling-v1_videos_pro_10',
    'kling-v1-5_videos_std_5',
    'kling-v1-5_videos_std_10',
    'kling-v1-5_videos_pro_5',
    'kling-v1-5_videos_pro_10',
    'kolors-virtual-try-on-v1',
  ]),
  t(55, 'Pika', 'pika', ['pika_v1.5text', 'pika_v1.5image', 'pika_v2.0text', 'pika_v2.0image']),
  t(57, 'LumaV2', 'luma', ['luma_v2_generate', 'luma_v2_extend']),
  t(58, 'Pixverse', 'pixverse', ['pixverse_v3.5', 'pixverse_v4']),
  t(59, 'Replicate', 'replicate', [
    'black-forest-labs/flux-schnell',
    'black-forest-labs/flux-dev',
    'black-forest-labs/flux-pro',
    'black-forest-labs/flux-1.1-pro',
    'stability-ai/stable-diffusion-3',
  ]),
  t(61, 'RunwayML', 'runwayml', ['runwayml_gen3a_turbo_5', 'runwayml_gen3a_turbo_10', 'runwayml_gen4_turbo_5', 'runwayml_gen4_turbo_10']),
  t(63, 'HiggsField', 'higgsfield', ['higgsfield_lite', 'higgsfield_standard', 'higgsfield_turbo']),
  t(64, 'Riffusion', 'riffusion', ['riffusion_generate', 'riffusion_topic']),
  t(65, 'bfl.ai', 'bfl', ['flux-pro-1.1', 'flux-pro-1.1-ultra', 'flux-pro', 'flux-dev', 'flux-kontext-pro', 'flux-kontext-max']),
  t(66, 'fal.ai', 'fal', ['fal-ai/flux/dev', 'fal-ai/flux/schnell', 'fal-ai/flux-pro/v1.1', 'fal-ai/flux-pro/v1.1-ultra']),
]

const BY_NUMBER = new Map(CHANNEL_TYPES.map((c) => [c.type, c]))

export function channelType(type: number): ChannelType | undefined {
  return BY_NUMBER.get(type)
}

/** The display name of a type number; 'unknown' for numbers the spec does not list. */
export function channelTypeName(type: number): string {
  return BY_NUMBER.get(type)?.name ?? 'unknown'
}

/** Extra settings the channel form fills into `other` when it is left empty. */
export const DEFAULT_OTHER: Readonly<Record<number, string>> = {
  [CHANNEL_TYPE.azure]: '2023-06-01-preview',
  [CHANNEL_TYPE.xunfei]: 'v2.1',
}

/** The Unix time (seconds) given as `created` of every built-in model object. */
export const MODEL_CREATED = 1626777600

export interface ModelObject {
  id: string
  object: 'model'
  created: number
  owned_by: string
}

/** Every built-in model once, owned by the first type that lists it. */
export function builtinModelObjects(): ModelObject[] {
  const seen = new Map<string, ModelObject>()
  for (const c of CHANNEL_TYPES) {
    for (const id of c.models) {
      if (!seen.has(id)) seen.set(id, { id, object: 'model', created: MODEL_CREATED, owned_by: c.owner })
    }
  }
  return [...seen.values()]
}

/** Type number (as a string key, the way JSON objects carry it) to its built-in model names. */
export function modelsByType(): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const c of CHANNEL_TYPES) out[String(c.type)] = [...c.models]
  return out
}
