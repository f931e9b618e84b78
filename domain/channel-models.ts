/**
 * The built-in models of each channel type: they pre-fill the channel form (GET /api/models) and
 * make the model list of GET /api/channel/models. Types without built-in models (custom, the
 * knowledge bases) take whatever the administrator types in. Server side only: the console reads
 * them over the API rather than shipping them in every bundle.
 */
import { CHANNEL_TYPES } from './channel-types.ts'

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

/** Midjourney-proxy actions, billed per call as mj_<action> (the default ModelPrice prices them). */
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

const PRESETS: Readonly<Record<number, readonly string[]>> = {
  1: OPENAI,
  2: MIDJOURNEY,
  5: MIDJOURNEY,
  4: ['llama3.1', 'llama3.2', 'qwen2.5', 'mistral', 'gemma2'],
  14: CLAUDE,
  33: CLAUDE,
  3: OPENAI_CHAT,
  24: ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-2.0-flash', 'text-embedding-004'],
  34: ['command-r', 'command-r-plus', 'command-r7b-12-2024'],
  15: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K', 'Embedding-V1'],
  17: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-long', 'text-embedding-v1'],
  18: ['SparkDesk-v1.1', 'SparkDesk-v2.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0'],
  16: ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'],
  26: ['glm-4', 'glm-4v', 'glm-4-plus', 'glm-4-flash', 'glm-3-turbo'],
  11: ['PaLM-2'],
  25: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
  19: ['360GPT_S2_V9', 'embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1'],
  23: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-pro', 'hunyuan-turbo'],
  31: ['yi-large', 'yi-medium', 'yi-spark', 'yi-lightning'],
  35: ['abab6.5-chat', 'abab6.5s-chat', 'abab5.5-chat'],
  41: ['suno_music', 'suno_lyrics', 'chirp-v3-0', 'chirp-v3-5', 'chirp-v4', 'chirp-lyrics'],
  43: ['luma_generate', 'luma_extend'],
  45: ['vg_generate', 'vg_up_image', 'vg_up_video', 'vg_template'],
  47: [
    'runway_gen2',
    'runway_gen3_5',
    'runway_gen3_10',
    'runway_gen3_fast_5',
    'runway_gen3_fast_10',
    'runway_gen3_turbo_5',
    'runway_gen3_turbo_10',
    'runway_file',
  ],
  49: ['udio_music'],
  51: [
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
  ],
  53: [
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
  ],
  55: ['pika_v1.5text', 'pika_v1.5image', 'pika_v2.0text', 'pika_v2.0image'],
  57: ['luma_v2_generate', 'luma_v2_extend'],
  58: ['pixverse_v3.5', 'pixverse_v4'],
  // the model names the task relays price and route by (docs/tasks.md): replicate_<owner>/<name>,
  // bfl_<model>, fal_<model id with / as _>
  59: [
    'replicate_black-forest-labs/flux-schnell',
    'replicate_black-forest-labs/flux-dev',
    'replicate_black-forest-labs/flux-pro',
    'replicate_black-forest-labs/flux-1.1-pro',
    'replicate_stability-ai/stable-diffusion-3',
  ],
  61: ['runwayml_gen3a_turbo_5', 'runwayml_gen3a_turbo_10', 'runwayml_gen4_turbo_5', 'runwayml_gen4_turbo_10'],
  63: ['higgsfield_lite', 'higgsfield_standard', 'higgsfield_turbo'],
  64: ['riffusion_generate', 'riffusion_topic'],
  65: ['bfl_flux-pro-1.1', 'bfl_flux-pro-1.1-ultra', 'bfl_flux-pro', 'bfl_flux-dev', 'bfl_flux-kontext-pro', 'bfl_flux-kontext-max'],
  66: ['fal_fal-ai_flux_dev', 'fal_fal-ai_flux_schnell', 'fal_fal-ai_flux-pro_v1.1', 'fal_fal-ai_flux-pro_v1.1-ultra'],
}

/** The built-in models of a type (none for a type without presets). */
export const presetModels = (type: number): readonly string[] => PRESETS[type] ?? []

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
    for (const id of presetModels(c.type)) {
      if (!seen.has(id)) seen.set(id, { id, object: 'model', created: MODEL_CREATED, owned_by: c.owner })
    }
  }
  return [...seen.values()]
}

/** Type number (as a string key, the way JSON objects carry it) to its built-in model names, for every type. */
export function modelsByType(): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const c of CHANNEL_TYPES) out[String(c.type)] = [...presetModels(c.type)]
  return out
}
