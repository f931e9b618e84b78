import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/index.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { $, cleanup, serverCommand, signInAs, sleep, uniqueName, waitFor, waitForToast } from './helpers.ts'
import {
  api,
  upstream,
  newChannel,
  readChannel,
  searchByName,
  type Control,
  rowOf,
  waitRow,
  inRow,
  mountChannels,
  drawerOf,
  field,
  setField,
  typeNative,
  click,
  action,
  openAdd,
  save,
  saveRefused,
} from './channels-helpers.ts'

describe('<tollgate-channels> drawer', () => {
  beforeEach(async () => {
    await signInAs('root', '123456')
    $prefs.setKey('id-sort', true)
  })
  afterEach(async () => {
    $prefs.setKey('id-sort', false)
    await cleanup()
  })

  it('creates a channel with every field and reads it back through the API', async () => {
    const name = uniqueName('ui')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'type', '1')
    await setField(el, 'name', name)
    await setField(el, 'key', 'sk-ui-created')
    await setField(el, 'base_url', `${upstream}/`)
    await setField(el, 'other', 'x-extra')
    await setField(el, 'openai_organization', 'org-123')
    const custom = drawerOf(el).querySelector<HTMLInputElement>('input[name="custom-models"]')!
    typeNative(custom, 'gpt-4o, my-model')
    await sleep(50)
    await click(action(drawerOf(el), 'add-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 2, 'two model chips')
    await setField(el, 'test_model', 'my-model')
    await setField(el, 'groups', ['default', 'vip'])
    await click(action(drawerOf(el), 'model-mapping-template'))
    await click(action(drawerOf(el), 'status-mapping-template'))
    await setField(el, 'priority', '7')
    await setField(el, 'weight', '3')
    await setField(el, 'max_input_tokens', '4096')
    await setField(el, 'auto_ban', false)
    await save(el)
    await waitForToast(el, 'channel created')
    await waitFor(() => !drawerOf(el).open, 'the drawer to close')
    const [found] = (await searchByName(name)).filter((c) => c.name === name)
    expect(found, 'the channel').to.not.equal(undefined)
    const c = (await readChannel(found!.id)).data
    expect(c.type).to.equal(1)
    expect(c.key).to.equal('sk-ui-created')
    expect(c.base_url).to.equal(upstream)
    expect(c.other).to.equal('x-extra')
    expect(c.openai_organization).to.equal('org-123')
    expect(c.models).to.equal('gpt-4o,my-model')
    expect(c.test_model).to.equal('my-model')
    expect(c.group).to.equal('default,vip')
    expect(JSON.parse(c.model_mapping)).to.deep.equal({
      'gpt-3.5-turbo-0301': 'gpt-3.5-turbo',
      'gpt-4-0314': 'gpt-4',
      'gpt-4-32k-0314': 'gpt-4-32k',
    })
    expect(JSON.parse(c.status_code_mapping)).to.deep.equal({ '400': '500' })
    expect([c.priority, c.weight, c.max_input_tokens, Number(c.auto_ban)]).to.deep.equal([7, 3, 4096, 0])
    await waitRow(el, c.id)
  })

  it('requires name and key for a new channel, at least one model, and JSON mappings', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await saveRefused(el, 'please fill in the channel name and key')
    await saveRefused(el, 'please fill in the channel name and key', { name: uniqueName('v') })
    await saveRefused(el, 'choose at least one model', { key: 'sk-v' })
    await click(action(drawerOf(el), 'fill-type-models'))
    await saveRefused(el, 'model mapping must be valid JSON', { model_mapping: '{not json' })
    await saveRefused(el, 'status-code mapping must be valid JSON', { model_mapping: '', status_code_mapping: '400: 500' })
    expect(drawerOf(el).open).to.equal(true)
  })

  it('refuses before sending what the server refuses by the same rule: a base URL that is not http(s), a mapping to no model name', async () => {
    const name = uniqueName('rule')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', name)
    await setField(el, 'key', 'sk-rule')
    await click(action(drawerOf(el), 'fill-type-models'))
    await saveRefused(el, 'the base URL must be an http or https address', { base_url: 'ftp://files.example' })
    await saveRefused(el, 'model mapping must map each name to a model name ("gpt-4o" does not)', {
      base_url: '',
      model_mapping: '{"gpt-4o": 4}',
    })
    expect(drawerOf(el).open).to.equal(true)
    expect((await searchByName(name)).filter((c) => c.name === name)).to.deep.equal([])
    const server = await api('POST', '/api/channel/', { name, type: 1, key: 'k', models: 'm', base_url: 'ftp://files.example' })
    expect([server.success, server.message]).to.deep.equal([false, 'base_url must be an http or https address'])
  })

  it('fills in the default other of types 3 and 18', async () => {
    for (const [type, other] of [
      ['3', '2023-06-01-preview'],
      ['18', 'v2.1'],
    ] as const) {
      const name = uniqueName('ot')
      const el = await mountChannels()
      await openAdd(el)
      await setField(el, 'type', type)
      await setField(el, 'name', name)
      await setField(el, 'key', type === '18' ? 'app|secret|key' : 'sk-azure')
      await setField(el, 'base_url', upstream)
      await click(action(drawerOf(el), 'fill-type-models'))
      await save(el)
      await waitForToast(el, 'channel created')
      const [found] = (await searchByName(name)).filter((c) => c.name === name)
      expect((await readChannel(found!.id)).data.other).to.equal(other)
      el.remove()
    }
  })

  it('shows the key format of each type', async () => {
    const el = await mountChannels()
    await openAdd(el)
    const formats: Record<string, string> = {
      '15': 'APIKey|SecretKey',
      '18': 'APPID|APISecret|APIKey',
      '22': 'APIKey-AppId',
      '23': 'AppId|SecretId|SecretKey',
      '64': 'refresh_token||apikey',
      '33': 'Ak|Sk|Region',
    }
    for (const [type, keyFormat] of Object.entries(formats)) {
      await setField(el, 'type', type)
      await waitFor(() => field(el, 'key').getAttribute('help-text') === `Key format: ${keyFormat}`, `the key format of type ${type}`)
      expect((field(el, 'key') as unknown as { placeholder: string }).placeholder).to.equal(keyFormat)
    }
    await setField(el, 'type', '1')
    await waitFor(() => field(el, 'key').getAttribute('help-text') === 'The API key the upstream issued.', 'the generic hint')
  })

  it('creates one channel per key line in batch mode', async () => {
    const name = uniqueName('bt')
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', name)
    await setField(el, 'batch', true)
    await waitFor(() => field(el, 'key').tagName === 'SL-TEXTAREA', 'the key lines box')
    await setField(el, 'key', 'sk-line-1\n\nsk-line-2\n  sk-line-3  \n')
    await setField(el, 'base_url', upstream)
    await click(action(drawerOf(el), 'fill-type-models'))
    await save(el)
    await waitForToast(el, '3 channels created')
    const made = (await searchByName(name)).filter((c) => c.name === name)
    expect(made.length).to.equal(3)
    const keys = await Promise.all(made.map(async (c) => (await readChannel(c.id)).data.key))
    expect(keys.sort()).to.deep.equal(['sk-line-1', 'sk-line-2', 'sk-line-3'])
  })

  it("says 'some models already exist' when a custom model is there already", async () => {
    const el = await mountChannels()
    await openAdd(el)
    const custom = drawerOf(el).querySelector<HTMLInputElement>('input[name="custom-models"]')!
    for (const value of ['gpt-4o', 'gpt-4o, o1']) {
      typeNative(custom, value)
      await sleep(50)
      await click(action(drawerOf(el), 'add-models'))
    }
    await waitForToast(el, 'some models already exist')
    expect([...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))).to.deep.equal([
      'gpt-4o',
      'o1',
    ])
  })

  it('fetches the model list of a new type-1 channel from the browser with the key', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'base_url', upstream)
    await setField(el, 'key', 'sk-fetch-from-browser')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 2, 'the fetched models')
    expect([...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))).to.deep.equal([
      'gpt-4o',
      'gpt-3.5-turbo',
    ])
    expect(await serverCommand('tg-admin-models-auth')).to.equal('Bearer sk-fetch-from-browser')
    await setField(el, 'key', 'sk-bad')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitForToast(el, 'fetching model list failed')
    await setField(el, 'type', '14')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitForToast(el, 'only the OpenAI interface format is supported')
  })

  it('fetches the model list of a saved channel through the server', async () => {
    const c = await newChannel({ models: 'only-this' })
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="edit"]'))
    await waitFor(() => drawerOf(el).querySelector('sl-tag[data-model="only-this"]'), 'the loaded models')
    await click(action(drawerOf(el), 'fetch-models'))
    await waitFor(() => drawerOf(el).querySelectorAll('sl-tag[data-model]').length === 3, 'the fetched models')
    await waitForToast(el, '2 models fetched')
  })

  it('fills in the preset models of image, music and video types when the list is empty', async () => {
    const presets = (await api<Record<string, string[]>>('GET', '/api/models')).data
    const el = await mountChannels()
    await openAdd(el)
    await waitFor(() => Object.keys(JSON.parse(localStorage.getItem('tollgate:models') ?? '{}')).length > 0, 'the cached model lists')
    const chips = () => [...drawerOf(el).querySelectorAll('sl-tag[data-model]')].map((t) => t.getAttribute('data-model'))
    for (const type of ['41', '43', '53', '66']) {
      await click(action(drawerOf(el), 'clear-models'))
      await setField(el, 'type', type)
      await waitFor(() => chips().join() === presets[type]!.join(), `the presets of type ${type}`)
    }
    await setField(el, 'type', '1')
    expect(chips().join()).to.equal(presets['66']!.join())
    await click(action(drawerOf(el), 'clear-models'))
    await setField(el, 'type', '14')
    expect(chips()).to.deep.equal([])
  })

  it('shows a failed last test as failed in the drawer, and why, not the time that test took', async () => {
    const c = await newChannel({ base_url: 'http://127.0.0.1:1' })
    const el = await mountChannels()
    const pill = () => inRow(rowOf(el, c.id)!, '[data-cell="response-time"]')!
    await click(inRow(await waitRow(el, c.id), '[data-action="test"]'))
    await waitFor(() => pill().dataset.color === 'failed', 'the failed pill')
    await click(inRow(rowOf(el, c.id)!, '[data-action="edit"]'))
    await waitFor(() => field(el, 'name').value === c.name, 'the loaded form')
    const fact = await waitFor(
      () => drawerOf(el).querySelector<HTMLElement>('[data-facts] [data-cell="response-time"]'),
      'the response time fact',
    )
    expect([fact.dataset.color, fact.textContent]).to.deep.equal(['failed', 'Failed'])
    // and why, written out: a drawer on a phone has no pointer to hover over the pill's title
    const why = drawerOf(el).querySelector<HTMLElement>('[data-facts] .tg-rt-why')!
    expect(why.textContent).to.match(/^the upstream could not be reached: connection refused \(.*ECONNREFUSED.*\)$/)
    expect(why.getBoundingClientRect().height).to.be.greaterThan(0)
  })

  it('edits a channel: the key stays when left empty', async () => {
    const c = await newChannel({ key: 'sk-keep-me' })
    const el = await mountChannels()
    await click(inRow(await waitRow(el, c.id), '[data-action="edit"]'))
    await waitFor(() => field(el, 'name').value === c.name, 'the loaded form')
    expect(field(el, 'key').value).to.equal('')
    expect((field(el, 'key') as unknown as { placeholder: string }).placeholder).to.equal('Leave empty to keep the current key')
    await setField(el, 'name', `${c.name}x`)
    await save(el)
    await waitForToast(el, 'channel updated')
    await waitFor(() => inRow(rowOf(el, c.id)!, '[data-cell="name"]')!.textContent === `${c.name}x`, 'the new name in the row')
    const read = (await readChannel(c.id)).data
    expect([read.name, read.key]).to.deep.equal([`${c.name}x`, 'sk-keep-me'])
  })

  it('offers the groups of the site as a list', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await waitFor(() => field(el, 'groups').querySelectorAll('sl-option').length >= 3, 'the group options')
    expect([...field(el, 'groups').querySelectorAll('sl-option')].map((o) => (o as Control).value)).to.include.members([
      'default',
      'vip',
      'svip',
    ])
    expect(field(el, 'groups').value).to.deep.equal(['default'])
  })

  it('keeps the form in the drawer while it slides out, then drops it', async () => {
    const el = await mountChannels()
    await openAdd(el)
    await setField(el, 'name', 'half-typed')
    await click(action(drawerOf(el), 'close'))
    expect(drawerOf(el).open).to.equal(false)
    expect(drawerOf(el).querySelector('form[data-form="channel"]'), 'the form while sliding out').to.not.equal(null)
    await waitFor(() => !drawerOf(el).querySelector('form[data-form="channel"]'), 'the form to go once hidden')
    await openAdd(el)
    expect(field(el, 'name').value).to.equal('')
  })

  it('opens and closes with the keyboard', async () => {
    const el = await mountChannels()
    const add = $<Control>(el, '[data-action="add"]')!
    await add.updateComplete
    add.focus()
    await sendKeys({ press: 'Enter' })
    await waitFor(() => drawerOf(el).open, 'the drawer')
    await sleep(300)
    await sendKeys({ press: 'Escape' })
    await waitFor(() => !drawerOf(el).open, 'the drawer to close')
  })
})
