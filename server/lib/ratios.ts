/**
 * Default pricing ratios. Ratio 1 is $0.002 per 1K tokens (500000 quota = $1), so a model's
 * price per 1M prompt tokens in USD is ratio x 2.
 */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-0125': 0.25,
  'gpt-3.5-turbo-instruct': 0.75,
  'gpt-4': 15,
  'gpt-4-turbo': 5,
  'gpt-4o': 1.25,
  'gpt-4o-2024-08-06': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4.1': 1,
  'gpt-4.1-mini': 0.2,
  'gpt-4.1-nano': 0.05,
  o1: 7.5,
  'o1-mini': 0.55,
  'o3-mini': 0.55,
  'text-embedding-ada-002': 0.05,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-moderation-latest': 0.1,
  'text-moderation-stable': 0.1,
  'omni-moderation-latest': 0.1,
  'dall-e-2': 8,
  'dall-e-3': 20,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'claude-3-haiku-20240307': 0.125,
  'claude-3-5-haiku-20241022': 0.5,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-3-opus-20240229': 7.5,
  'gemini-1.5-pro': 1.25,
  'gemini-1.5-flash': 0.0375,
  'gemini-2.0-flash': 0.05,
  'deepseek-chat': 0.135,
  'deepseek-reasoner': 0.275,
}

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  'gpt-3.5-turbo': 3,
  'gpt-3.5-turbo-0125': 3,
  'gpt-4': 2,
  'gpt-4-turbo': 3,
  'gpt-4o': 4,
  'gpt-4o-2024-08-06': 4,
  'gpt-4o-mini': 4,
  'gpt-4.1': 4,
  'gpt-4.1-mini': 4,
  'gpt-4.1-nano': 4,
  o1: 4,
  'o1-mini': 4,
  'o3-mini': 4,
  'claude-3-haiku-20240307': 5,
  'claude-3-5-haiku-20241022': 5,
  'claude-3-5-sonnet-20241022': 5,
  'claude-3-7-sonnet-20250219': 5,
  'claude-3-opus-20240229': 5,
  'gemini-1.5-pro': 4,
  'gemini-1.5-flash': 4,
  'gemini-2.0-flash': 4,
  'deepseek-chat': 2,
  'deepseek-reasoner': 4,
}

/** USD per call, for models billed per call rather than per token. */
export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_upload: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
}

export const DEFAULT_GROUP_RATIO: Record<string, number> = { default: 1, vip: 1, svip: 1 }

/** Ratio used for a model that no ratio or price names. */
export const UNKNOWN_MODEL_RATIO = 30
