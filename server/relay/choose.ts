import type { RelayEngine } from './engine.ts'
import { RelayError } from './errors.ts'
import type { ChannelState } from './state.ts'
import type { Caller } from './authenticate.ts'
import { adapterFor, type Adapter, type Mode, type RelayCall } from './adapters/index.ts'
import { channelTypeName } from '../../domain/channel-types.ts'

const MODE_LABEL: Record<Mode, string> = {
  chat: 'chat completions',
  completions: 'completions',
  embeddings: 'embeddings',
  images: 'image generation',
  moderations: 'moderations',
  speech: 'speech',
  transcriptions: 'transcriptions',
  translations: 'translations',
  messages: 'the Anthropic messages API',
  responses: 'the Responses API',
  gemini: 'the Gemini API',
}

/**
 * Stage 2, before anything is held: refuses a model the token may not use, and a model no channel
 * of the caller's group serves. Returns the channel an administrator pinned (sk-KEY-<id>), or null
 * when each attempt picks its own (see nextChannel).
 */
export function chooseRoute(engine: RelayEngine, caller: Caller, call: RelayCall): ChannelState | null {
  const { token, group } = caller
  if (token.modelLimits && !token.modelLimits.has(call.model)) {
    throw new RelayError(403, `this API key may not use the model ${call.model}`, 'model_not_allowed')
  }
  if (caller.pinned) {
    const pinned = engine.state.channels.get(caller.pinned)
    if (!pinned) throw new RelayError(404, `channel ${caller.pinned} does not exist`, 'channel_not_found')
    if (pinned.status !== 1) throw new RelayError(403, `channel ${caller.pinned} is disabled`, 'channel_disabled')
    return pinned
  }
  if (!engine.state.hasRoute(group, call.model)) throw noChannel(call, group)
  return null
}

/**
 * The channel of one attempt: the pinned one, else a pick among the group's channels for the model
 * (highest priority first, the next level on each retry, weighted random within a level, channels
 * already tried skipped while the level has others).
 */
export function nextChannel(
  engine: RelayEngine,
  group: string,
  model: string,
  pinned: ChannelState | null,
  attempt: number,
  tried: readonly number[],
): ChannelState | null {
  return pinned ?? engine.state.pick(group, model, attempt, tried, engine.random)
}

/** The adapter that speaks the channel's protocol for this endpoint, or null. */
export function channelAdapter(ch: ChannelState, mode: Mode): Adapter | null {
  const adapter = adapterFor(ch.type)
  return adapter && adapter.supports(mode) ? adapter : null
}

/** The model name to ask the channel for: the channel's model mapping applied. */
export function upstreamModelOf(ch: ChannelState, model: string): string {
  return ch.modelMapping?.[model] || model
}

export function unsupported(ch: ChannelState, mode: Mode): RelayError {
  return new RelayError(
    400,
    `${MODE_LABEL[mode]} is not supported for this channel type (${channelTypeName(ch.type)})`,
    'channel_type_not_supported',
  )
}

export function noChannel(call: RelayCall, group: string): RelayError {
  return new RelayError(503, `no channel available for the model ${call.model} in the group ${group}`, 'model_not_found')
}
