import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { channelBody, emptyForm, responseTimeColor } from '../../src/screens/channels/channel-rules.ts'
import { boundedNumber } from '../../domain/channel-rules.ts'
import { CHANNEL_TYPES, channelTypeName } from '../../domain/channel-types.ts'

describe('channel rules (pure)', () => {
  it('names every type number of the spec, in both languages, and says unknown otherwise', () => {
    const expected: Record<number, string> = {
      1: 'OpenAI',
      2: 'image-relay proxy',
      5: 'image-relay proxy plus',
      3: 'Azure OpenAI',
      14: 'Anthropic Claude',
      33: 'AWS Claude',
      8: 'custom',
      22: 'FastGPT knowledge base',
      64: 'Riffusion',
      66: 'fal.ai',
    }
    for (const [n, name] of Object.entries(expected)) expect(channelTypeName(Number(n), 'en')).to.equal(name)
    const spec = [
      1, 2, 5, 4, 14, 33, 3, 24, 34, 15, 17, 18, 16, 26, 11, 25, 19, 23, 31, 35, 8, 22, 21, 41, 43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 61,
      63, 64, 65, 66,
    ]
    expect(CHANNEL_TYPES.map((c) => c.type)).to.deep.equal(spec)
    for (const n of spec) {
      expect(channelTypeName(n, 'en')).to.not.equal('unknown')
      expect(channelTypeName(n, 'zh')).to.not.equal('未知')
    }
    expect(channelTypeName(6, 'en')).to.equal('unknown')
    expect(channelTypeName(99, 'zh')).to.equal('未知')
  })

  it('colours response times at the spec bounds', () => {
    expect([0, 1, 1000, 1001, 3000, 3001, 5000, 5001].map(responseTimeColor)).to.deep.equal([
      'untested',
      'green',
      'green',
      'lime',
      'lime',
      'yellow',
      'yellow',
      'red',
    ])
  })

  it('keeps priority at -999 or above, weight at 0 or above, and ignores an empty box', () => {
    expect(boundedNumber('-5000', -999)).to.equal(-999)
    expect(boundedNumber('-3', 0)).to.equal(0)
    expect(boundedNumber('7', 0)).to.equal(7)
    expect(boundedNumber('', -999)).to.equal(null)
    expect(boundedNumber('  ', 0)).to.equal(null)
  })

  it("refuses models that are not a list with 'submit failed, do not resubmit'", () => {
    const form = { ...emptyForm(), name: 'x', key: 'k', models: 'gpt-4o' as unknown as string[] }
    expect(channelBody(form, true)).to.deep.equal({ error: 'channels.error.resubmit' })
  })

  it('builds the body: no trailing slash, defaults of types 3 and 18, empty priority left out, weight clamped', () => {
    const base = { ...emptyForm(), name: 'n', key: 'k', models: ['m'], base_url: 'https://x.example/v1//', priority: '', weight: '-4' }
    const body = (channelBody({ ...base, type: 3 }, true) as { body: Record<string, unknown> }).body
    expect(body.base_url).to.equal('https://x.example/v1')
    expect(body.other).to.equal('2023-06-01-preview')
    expect(body).to.not.have.property('priority')
    expect(body.weight).to.equal(0)
    expect((channelBody({ ...base, type: 18 }, true) as { body: Record<string, unknown> }).body.other).to.equal('v2.1')
    expect((channelBody({ ...base, type: 18, other: 'v3.5' }, true) as { body: Record<string, unknown> }).body.other).to.equal('v3.5')
    expect((channelBody({ ...base, type: 1 }, true) as { body: Record<string, unknown> }).body.other).to.equal('')
  })
})
