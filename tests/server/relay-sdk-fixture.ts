/**
 * The fixture of the openai SDK relay tests (relay-sdk-*.test.ts): the relay fixture with a user, a
 * key and one channel serving every model those tests call, the openai client on that key, and a
 * cl100k token counter.
 */
import OpenAI from 'openai'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100k from 'js-tiktoken/ranks/cl100k_base'
import type { Dialect } from './helpers.ts'
import { relayFixture, type RelayFixture } from './relay-helpers.ts'

const enc = new Tiktoken(cl100k)
export const count = (s: string) => enc.encode(s).length

export interface SdkFixture {
  f: RelayFixture
  userId: number
  token: { id: number; key: string }
  channelId: number
  /** the openai client on `token`, against the listening relay */
  client: OpenAI
}

export async function sdkFixture(dialect: Dialect): Promise<SdkFixture> {
  const f = await relayFixture(dialect)
  const userId = await f.user({ quota: 10_000_000 })
  const token = await f.token(userId, { remain: 5_000_000 })
  const channelId = await f.channel({
    models: 'gpt-3.5-turbo,gpt-4o,text-embedding-3-small,gpt-3.5-turbo-instruct,dall-e-3,text-moderation-stable,tts-1,whisper-1',
  })
  const client = new OpenAI({ apiKey: token.key, baseURL: `${f.base}/v1`, maxRetries: 0 })
  return { f, userId, token, channelId, client }
}
