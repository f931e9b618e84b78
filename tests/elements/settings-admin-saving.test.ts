import { expect } from '@esm-bundle/chai'
import '../../elements/settings.ts'
import { OPTION_LABELS } from '../../src/screens/settings/option-labels.ts'
import { $status } from '../../src/stores/status.ts'
import { $, $$, fill, mount, registerAndSignIn, setOptions, sleep, waitFor, waitForText, waitForToast } from './helpers.ts'
import {
  rootTab,
  SPEC_KEYS,
  asRoot,
  tab,
  section,
  save,
  fillArea,
  switchOf,
  toggle,
  readOptions,
  puts,
  done,
  inputHelp,
} from './settings-admin-helpers.ts'

describe('settings tabs: roles', () => {
  afterEach(done)

  it('shows the tabs to the super administrator only; the server refuses other roles', async () => {
    await registerAndSignIn()
    for (const name of ['operation', 'system', 'other'] as const) {
      const el = await mount(`<tg-test-admin-tab tab="${name}"></tg-test-admin-tab>`)
      await waitForText(el, 'Only the super administrator can change these settings.')
      expect($(el, '[data-section]')).to.equal(null)
      expect($(el, '[data-forbidden]')).to.not.equal(null)
    }
    expect((await fetch('/api/option/')).status).to.equal(403)
    const put = await fetch('/api/option/', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'SystemName', value: 'x' }),
    })
    expect(put.status).to.equal(403)
    expect((await fetch('/api/option/rest_model_ratio', { method: 'POST' })).status).to.equal(403)
  })

  it('has a control and a label in both languages for every option key of the spec', async () => {
    await asRoot()
    const found = new Set<string>()
    for (const name of ['operation', 'system', 'other'] as const) {
      const el = await tab(name)
      for (const node of $$(el, '[data-option]')) found.add(node.getAttribute('data-option')!)
      el.remove()
    }
    // the spec's keys, and the family's task keys the drawing section adds (issue 14)
    const keys = [...SPEC_KEYS, 'MjActionCheckSuccessEnabled', 'MjTranslateModel', 'TaskPollInterval', 'TaskTimeout']
    expect(keys.filter((k) => !found.has(k))).to.deep.equal([])
    const labels = OPTION_LABELS as Record<'en' | 'zh', Record<string, string>>
    expect(keys.filter((k) => !labels.en[`opt.${k}`] || !labels.zh[`opt.${k}`])).to.deep.equal([])
  })
})

describe('settings tabs: saving', () => {
  afterEach(done)

  it('says so when nothing changed, and sends nothing', async () => {
    const el = await rootTab('operation')
    await save(el, 'general')
    await waitForToast(el, 'you seem not to have changed anything')
    expect(puts()).to.deep.equal([])
  })

  it('saves each changed key with its own PUT and reads them back', async () => {
    const el = await rootTab('operation')
    await fill(el, 'ChatLink', 'https://chat.example.com')
    await fill(el, 'RetryTimes', '3')
    await toggle(el, 'DefaultCollapseSidebar')
    expect(section(el, 'general').querySelector('[data-dirty]')).to.not.equal(null)
    await save(el, 'general')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([
      { key: 'ChatLink', value: 'https://chat.example.com' },
      { key: 'RetryTimes', value: '3' },
      { key: 'DefaultCollapseSidebar', value: 'true' },
    ])
    const options = await readOptions()
    expect([options.ChatLink, options.RetryTimes, options.DefaultCollapseSidebar]).to.deep.equal(['https://chat.example.com', '3', 'true'])
    await waitFor(() => !section(el, 'general').querySelector('[data-dirty]'), 'the form to be clean')
    // the public status is refreshed, so the console reflects the change
    await waitFor(
      () => $status.get()?.chat_link === 'https://chat.example.com' && $status.get()?.default_collapse_sidebar === true,
      'the refreshed status',
    )
  })

  it('tells a partial failure, lists what failed, and saves the rest; a retry sends only what is left', async () => {
    const el = await rootTab('system')
    await toggle(el, 'RegisterEnabled')
    await toggle(el, 'GitHubOAuthEnabled') // refused: no GitHub client id yet
    await save(el, 'login')
    await waitForToast(el, 'some saves failed, retry')
    const failures = await waitFor(() => section(el, 'login').querySelector('[data-failures]'))
    expect(failures.textContent).to.include('GitHubOAuthEnabled')
    let options = await readOptions()
    expect(options.RegisterEnabled).to.equal('false')
    expect(options.GitHubOAuthEnabled).to.equal('false')
    expect(switchOf(el, 'GitHubOAuthEnabled').checked).to.equal(true)

    await fill(el, 'GitHubClientId', 'gh-client-1')
    await save(el, 'github')
    await waitFor(() => !section(el, 'github').querySelector('[data-dirty]'), 'the GitHub form saved')
    puts().length = 0
    await save(el, 'login')
    await waitFor(() => !section(el, 'login').querySelector('[data-failures]'), 'the failures gone')
    expect(puts()).to.deep.equal([{ key: 'GitHubOAuthEnabled', value: 'true' }])
    options = await readOptions()
    expect(options.GitHubOAuthEnabled).to.equal('true')
  })

  it('takes monitoring and quota numbers as integers of at least 0, and the dashboard interval from 1 minute', async () => {
    const el = await rootTab('operation')
    await fill(el, 'QuotaForNewUser', '-1')
    await save(el, 'quota')
    await waitForToast(el, 'Quota for new users: must be an integer of at least 0')
    expect(inputHelp(el, 'QuotaForNewUser')).to.equal('must be an integer of at least 0')
    await fill(el, 'QuotaForNewUser', '2.5')
    await save(el, 'quota')
    await waitFor(() => inputHelp(el, 'QuotaForNewUser') === 'must be an integer of at least 0')
    await fill(el, 'ChannelDisableThreshold', '-3')
    await save(el, 'monitoring')
    await waitForToast(el, 'Slowest test response before disabling (seconds): must be an integer of at least 0')
    await fill(el, 'DataExportInterval', '0')
    await save(el, 'dashboard')
    await waitForToast(el, 'Write interval (minutes): must be an integer of at least 1')
    expect(puts()).to.deep.equal([])

    await fill(el, 'QuotaForNewUser', '0')
    await fill(el, 'QuotaForInvitee', '250')
    await save(el, 'quota')
    await waitForToast(el, 'saved')
    await fill(el, 'DataExportInterval', '1')
    await save(el, 'dashboard')
    await waitFor(() => puts().some((p) => p.key === 'DataExportInterval'))
    // the PUT is recorded when it is sent: read back once the server has answered it
    let options = await readOptions()
    for (let i = 0; i < 100 && options.DataExportInterval !== '1'; i++) {
      await sleep(50)
      options = await readOptions()
    }
    expect([options.QuotaForInvitee, options.DataExportInterval]).to.deep.equal(['250', '1'])
    expect(puts().map((p) => p.key)).to.deep.equal(['QuotaForInvitee', 'DataExportInterval'])
  })

  it('offers hour, day and week as the default dashboard granularity', async () => {
    const el = await rootTab('operation')
    const group = section(el, 'dashboard').querySelector<HTMLElement & { value: string }>(
      'sl-radio-group[data-option="DataExportDefaultTime"]',
    )!
    expect(group.value).to.equal('hour')
    expect([...group.querySelectorAll('sl-radio-button')].map((b) => b.getAttribute('data-choice'))).to.deep.equal(['hour', 'day', 'week'])
    group.querySelector<HTMLElement>('sl-radio-button[data-choice="week"]')!.click()
    await waitFor(() => group.value === 'week', 'week chosen')
    await waitFor(() => section(el, 'dashboard').querySelector('[data-dirty]'), 'the unsaved change')
    await save(el, 'dashboard')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'DataExportDefaultTime', value: 'week' }])
    expect((await readOptions()).DataExportDefaultTime).to.equal('week')
    await waitFor(() => $status.get()?.data_export_default_time === 'week', 'the refreshed status')
  })

  it('checks the ratio JSON on blur and refuses to save it with "please check the input"', async () => {
    const el = await rootTab('operation')
    await fillArea(el, 'GroupRatio', '{"default": 1,')
    await waitFor(() => inputHelp(el, 'GroupRatio') === 'not a legal JSON string', 'the blur check')
    await save(el, 'ratios')
    await waitForToast(el, 'please check the input')
    expect(puts()).to.deep.equal([])
    await fillArea(el, 'GroupRatio', '{"default": 1, "vip": 0.8}')
    expect(inputHelp(el, 'GroupRatio')).to.not.equal('not a legal JSON string')
    await save(el, 'ratios')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'GroupRatio', value: '{"default": 1, "vip": 0.8}' }])
    expect(JSON.parse((await readOptions()).GroupRatio!)).to.deep.equal({ default: 1, vip: 0.8 })
  })

  it('refuses before sending what the server refuses by the same rule: a ratio that is not a number, a number over its bound', async () => {
    const el = await rootTab('operation')
    await fillArea(el, 'GroupRatio', '{"default": "1"}')
    await waitFor(() => inputHelp(el, 'GroupRatio') === 'the value of "default" must be a number of at least 0', 'the blur check')
    await save(el, 'ratios')
    await waitForToast(el, 'please check the input')
    await fill(el, 'RetryTimes', '101')
    await save(el, 'general')
    await waitForToast(el, 'Retries on failure: must be at most 100')
    expect(puts()).to.deep.equal([])
    const server = await fetch('/api/option/', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'RetryTimes', value: '101' }),
    }).then((r) => r.json())
    expect([server.success, server.message]).to.deep.equal([false, 'RetryTimes must be at most 100'])
  })

  it('resets the model ratios after a confirmation', async () => {
    await setOptions({ ModelRatio: '{"only-model": 2}' })
    await asRoot()
    const el = await tab('operation')
    const area = () => $$<HTMLTextAreaElement>(el, 'sl-textarea').find((a) => a.name === 'ModelRatio')!
    expect(area().value).to.equal('{"only-model": 2}')
    $(el, 'sl-button[data-reset-ratios]')!.click()
    const dialog = await waitFor(
      () =>
        section(el, 'ratios').querySelector<HTMLElement & { open: boolean }>('sl-dialog[data-confirm]')?.open &&
        section(el, 'ratios').querySelector('sl-dialog[data-confirm]'),
    )
    expect(dialog.textContent).to.include('back to the defaults')
    dialog.querySelector<HTMLElement>('sl-button[data-confirm-ok]')!.click()
    await waitForToast(el, 'model ratios reset to the defaults')
    await waitFor(() => area().value !== '{"only-model": 2}', 'the reloaded ratios')
    const stored = JSON.parse((await readOptions()).ModelRatio!)
    expect(stored).to.not.have.property('only-model')
    expect(Object.keys(stored).length).to.be.greaterThan(3)
  })
})
