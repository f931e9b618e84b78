import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  AZURE_API_VERSION,
  canFetchModels,
  CHANNEL_TYPE,
  CHANNEL_TYPES,
  channelOwner,
  channelType,
  channelTypeName,
  otherWithDefault,
} from '../../domain/channel-types.ts'
import { builtinModelObjects, modelsByType, presetModels } from '../../domain/channel-models.ts'
import { OPENAI_COMPATIBLE } from '../../server/relay/adapters/openai.ts'
import { adapterFor } from '../../server/relay/adapters/index.ts'

/** Spec section 3, in its order and its words. */
const SPEC: Array<[number, string]> = [
  [1, 'OpenAI'],
  [2, 'image-relay proxy'],
  [5, 'image-relay proxy plus'],
  [4, 'Ollama'],
  [14, 'Anthropic Claude'],
  [33, 'AWS Claude'],
  [3, 'Azure OpenAI'],
  [24, 'Google Gemini'],
  [34, 'Cohere'],
  [15, 'Baidu'],
  [17, 'Alibaba'],
  [18, 'iFlytek'],
  [16, 'Zhipu ChatGLM'],
  [26, 'Zhipu GLM-4V'],
  [11, 'PaLM2'],
  [25, 'Moonshot'],
  [19, '360'],
  [23, 'Tencent'],
  [31, 'Yi'],
  [35, 'MiniMax'],
  [8, 'custom'],
  [22, 'FastGPT knowledge base'],
  [21, 'AI Proxy knowledge base'],
  [41, 'Suno'],
  [43, 'Luma'],
  [45, 'Viggle'],
  [47, 'Runway'],
  [49, 'Udio'],
  [51, 'Ideogram'],
  [53, 'Kling'],
  [55, 'Pika'],
  [57, 'LumaV2'],
  [58, 'Pixverse'],
  [59, 'Replicate'],
  [61, 'RunwayML'],
  [63, 'HiggsField'],
  [64, 'Riffusion'],
  [65, 'bfl.ai'],
  [66, 'fal.ai'],
]

describe('channel types', () => {
  it("are the spec's numbers, names and order, once each", () => {
    assert.deepEqual(
      CHANNEL_TYPES.map((c) => [c.type, c.name]),
      SPEC,
    )
    for (const [n, name] of SPEC) assert.equal(channelTypeName(n), name)
    assert.equal(new Set(Object.values(CHANNEL_TYPE)).size, CHANNEL_TYPES.length)
    for (const n of Object.values(CHANNEL_TYPE)) assert.ok(channelType(n), `CHANNEL_TYPE names ${n}, which the table lacks`)
  })

  it("name an unknown type 'unknown', in Chinese too, and every known one in Chinese", () => {
    assert.equal(channelTypeName(6), 'unknown')
    assert.equal(channelTypeName(999, 'zh'), '未知')
    for (const c of CHANNEL_TYPES) assert.ok(c.zh && c.zh !== '未知', `type ${c.type} has a Chinese name`)
    assert.equal(channelOwner(999), 'custom')
  })

  it('carry the key formats of spec section 5', () => {
    const formats = Object.fromEntries(CHANNEL_TYPES.filter((c) => c.keyFormat).map((c) => [c.type, c.keyFormat]))
    assert.deepEqual(formats, {
      15: 'APIKey|SecretKey',
      18: 'APPID|APISecret|APIKey',
      22: 'APIKey-AppId',
      23: 'AppId|SecretId|SecretKey',
      64: 'refresh_token||apikey',
      33: 'Ak|Sk|Region',
    })
  })

  it('fill an empty `other` of Azure with 2023-06-01-preview and of iFlytek with v2.1, nothing else', () => {
    assert.equal(AZURE_API_VERSION, '2023-06-01-preview')
    assert.equal(otherWithDefault(CHANNEL_TYPE.azure, ''), AZURE_API_VERSION)
    assert.equal(otherWithDefault(CHANNEL_TYPE.xunfei, ''), 'v2.1')
    assert.equal(otherWithDefault(CHANNEL_TYPE.azure, '2024-10-21'), '2024-10-21')
    assert.equal(otherWithDefault(CHANNEL_TYPE.openai, ''), '')
    assert.equal(otherWithDefault(999, ''), '')
  })

  it('let only the OpenAI type fetch its model list', () => {
    assert.deepEqual(
      CHANNEL_TYPES.filter((c) => canFetchModels(c.type)).map((c) => c.type),
      [1],
    )
  })

  it('give every image, music and video type preset models, and every type an entry in /api/models', () => {
    const media = CHANNEL_TYPES.filter((c) => c.media).map((c) => c.type)
    assert.deepEqual(media, [2, 5, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 61, 63, 64, 65, 66])
    for (const n of media) assert.ok(presetModels(n).length > 0, `type ${n} has presets`)
    assert.deepEqual(
      Object.keys(modelsByType())
        .map(Number)
        .sort((a, b) => a - b),
      CHANNEL_TYPES.map((c) => c.type).sort((a, b) => a - b),
    )
    const ids = builtinModelObjects().map((m) => m.id)
    assert.equal(new Set(ids).size, ids.length, 'each built-in model once')
  })

  it('tell the relay which adapter speaks each one', () => {
    for (const c of CHANNEL_TYPES) {
      assert.equal(
        Boolean(OPENAI_COMPATIBLE[c.type]),
        c.format === 'openai',
        `type ${c.type}: the relay knows where an OpenAI-format type lives`,
      )
      assert.equal(adapterFor(c.type) !== null, c.format !== null, `type ${c.type}: an adapter exactly for the formats the relay speaks`)
      if (c.format) assert.equal(adapterFor(c.type)!.owner, c.owner)
    }
    assert.equal(adapterFor(999), null)
  })
})
