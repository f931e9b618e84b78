/**
 * The super-administrator settings tabs (operation, system, other) against the real server.
 * The tabs are plain components that <tollgate-settings> renders; here they are mounted alone in a
 * test-only element (same shell, theme and CSS as every Tollgate element), one tab per element.
 */
import { expect } from '@esm-bundle/chai'
import { sendKeys, setViewport } from '@web/test-runner-commands'
import { createElement as h } from 'react'
import { defineElement, ElementShell, type AdapterProps } from '../../elements/define.ts'
import '../../elements/settings.ts'
import { OperationTab } from '../../src/screens/settings/operation-tab.tsx'
import { SystemTab } from '../../src/screens/settings/system-tab.tsx'
import { OtherTab } from '../../src/screens/settings/other-tab.tsx'
import { OPTION_LABELS } from '../../src/screens/settings/option-labels.ts'
import { $status } from '../../src/stores/status.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import {
  $,
  $$,
  cleanup,
  fill,
  loadStatus,
  mount,
  registerAndSignIn,
  serverCommand,
  setOptions,
  signInAs,
  sleep,
  textOf,
  toastTexts,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

const TABS = { operation: OperationTab, system: SystemTab, other: OtherTab } as const
type TabName = keyof typeof TABS

defineElement(
  'tg-test-admin-tab',
  ({ container, tab }: AdapterProps & { tab?: TabName }) =>
    h(ElementShell, { container, children: () => (tab && TABS[tab] ? h(TABS[tab]) : null) }),
  { tab: 'string' },
)

/** Every option key of spec section 3. */
const SPEC_KEYS = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'TelegramOAuthEnabled',
  'TurnstileCheckEnabled',
  'RegisterEnabled',
  'EmailDomainRestrictionEnabled',
  'EmailAliasRestrictionEnabled',
  'SMTPSSLEnabled',
  'Notice',
  'SystemName',
  'Logo',
  'Footer',
  'About',
  'HomePageContent',
  'ServerAddress',
  'WorkerUrl',
  'WorkerValidKey',
  'PayAddress',
  'EpayId',
  'EpayKey',
  'CustomCallbackAddress',
  'Price',
  'MinTopUp',
  'TopupGroupRatio',
  'SMTPServer',
  'SMTPPort',
  'SMTPAccount',
  'SMTPFrom',
  'SMTPToken',
  'GitHubClientId',
  'GitHubClientSecret',
  'WeChatServerAddress',
  'WeChatServerToken',
  'WeChatAccountQRCodeImageURL',
  'TurnstileSiteKey',
  'TurnstileSecretKey',
  'EmailDomainWhitelist',
  'TelegramBotToken',
  'TelegramBotName',
  'TopUpLink',
  'ChatLink',
  'ChatLink2',
  'QuotaPerUnit',
  'RetryTimes',
  'CapPools',
  'SunoCapStr',
  'StopWord',
  'SunoServer',
  'SunoVersion',
  'SunoProxy',
  'SunoMe',
  'UserTimeEnabled',
  'DisplayInCurrencyEnabled',
  'DisplayTokenStatEnabled',
  'DefaultCollapseSidebar',
  'DrawingEnabled',
  'MjNotifyEnabled',
  'MjAccountFilterEnabled',
  'MjForwardUrlEnabled',
  'MjModeClearEnabled',
  'MjCDNProxy',
  'MjTranslate',
  'ViggleProEnabled',
  'CheckSensitiveEnabled',
  'CheckSensitiveOnPromptEnabled',
  'SensitiveWords',
  'LogConsumeEnabled',
  'DataExportEnabled',
  'DataExportInterval',
  'DataExportDefaultTime',
  'ChannelDisableThreshold',
  'QuotaRemindThreshold',
  'AutomaticDisableChannelEnabled',
  'AutomaticEnableChannelEnabled',
  'QuotaForNewUser',
  'PreConsumedQuota',
  'QuotaForInviter',
  'QuotaForInvitee',
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'VmodelMap',
  'SunoLimit',
]

async function asRoot(): Promise<void> {
  await signInAs('root', '123456')
}

/** Mounts one tab and waits for its forms (the options loaded). */
async function tab(name: TabName): Promise<HTMLElement> {
  const el = await mount(`<tg-test-admin-tab tab="${name}"></tg-test-admin-tab>`)
  await waitFor(() => $(el, '[data-section]'), `the ${name} forms`)
  return el
}

const section = (el: HTMLElement, id: string) => $(el, `[data-section="${id}"]`)!

async function save(el: HTMLElement, id: string): Promise<void> {
  const button = await waitFor(
    () => $<HTMLElement & { updateComplete: Promise<unknown> }>(el, `sl-button[data-save="${id}"]`),
    `Save of ${id}`,
  )
  await button.updateComplete
  button.click()
  await sleep(0)
}

/** Types into the sl-textarea (or sl-input) named `name` and leaves it (sl-blur). */
async function fillArea(el: HTMLElement, name: string, value: string, leave = true): Promise<void> {
  const area = await waitFor(() => $$<HTMLTextAreaElement>(el, 'sl-textarea, sl-input').find((a) => a.name === name), `field ${name}`)
  area.value = value
  area.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(50)
  if (leave) {
    area.dispatchEvent(new CustomEvent('sl-blur', { bubbles: true, composed: true }))
    await sleep(50)
  }
}

function switchOf(el: HTMLElement, key: string): HTMLElement & { checked: boolean; disabled: boolean } {
  return $(el, `sl-switch[data-option="${key}"]`) as HTMLElement & { checked: boolean; disabled: boolean }
}

async function toggle(el: HTMLElement, key: string): Promise<void> {
  const sw = await waitFor(() => switchOf(el, key), `switch ${key}`)
  await (sw as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
  sw.click()
  await sleep(50)
}

/** What GET /api/option/ answers now. */
async function readOptions(): Promise<Record<string, string>> {
  const body = await fetch('/api/option/').then((r) => r.json())
  return Object.fromEntries((body.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]))
}

/** Records the bodies of the PUT /api/option/ calls the page makes. */
function recordPuts(): { puts: Array<{ key: string; value: string }>; stop: () => void } {
  const original = window.fetch
  const puts: Array<{ key: string; value: string }> = []
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    if (method === 'PUT' && url.pathname === '/api/option/' && typeof init?.body === 'string') puts.push(JSON.parse(init.body))
    return original(input, init)
  }
  return { puts, stop: () => (window.fetch = original) }
}

let recorder: ReturnType<typeof recordPuts> | null = null
function puts() {
  recorder ??= recordPuts()
  return recorder.puts
}

async function done(): Promise<void> {
  recorder?.stop()
  recorder = null
  await cleanup()
}

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
    expect(SPEC_KEYS.filter((k) => !found.has(k))).to.deep.equal([])
    const labels = OPTION_LABELS as Record<'en' | 'zh', Record<string, string>>
    expect(SPEC_KEYS.filter((k) => !labels.en[`opt.${k}`] || !labels.zh[`opt.${k}`])).to.deep.equal([])
  })
})

describe('settings tabs: saving', () => {
  afterEach(done)

  it('says so when nothing changed, and sends nothing', async () => {
    await asRoot()
    const el = await tab('operation')
    puts()
    await save(el, 'general')
    await waitForToast(el, 'you seem not to have changed anything')
    expect(puts()).to.deep.equal([])
  })

  it('saves each changed key with its own PUT and reads them back', async () => {
    await asRoot()
    const el = await tab('operation')
    puts()
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
    await asRoot()
    const el = await tab('system')
    puts()
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
    await asRoot()
    const el = await tab('operation')
    puts()
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
    const options = await readOptions()
    expect([options.QuotaForInvitee, options.DataExportInterval]).to.deep.equal(['250', '1'])
    expect(puts().map((p) => p.key)).to.deep.equal(['QuotaForInvitee', 'DataExportInterval'])
  })

  it('offers hour, day and week as the default dashboard granularity', async () => {
    await asRoot()
    const el = await tab('operation')
    puts()
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
    await asRoot()
    const el = await tab('operation')
    puts()
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
    await asRoot()
    const el = await tab('operation')
    puts()
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

/** The help text an sl-input or sl-textarea shows (hint or error). */
function inputHelp(el: HTMLElement, name: string): string {
  const field = $$<HTMLElement & { helpText: string; name: string }>(el, 'sl-input, sl-textarea, sl-radio-group').find(
    (f) => f.name === name,
  )
  return field?.helpText ?? ''
}

describe('settings tabs: system rules', () => {
  afterEach(done)

  it('drops the trailing slash of the server, worker, payment and WeChat server addresses', async () => {
    await asRoot()
    const el = await tab('system')
    puts()
    await fill(el, 'ServerAddress', 'https://gw.example.com/')
    await save(el, 'server')
    await waitForToast(el, 'saved')
    await fill(el, 'WorkerUrl', 'https://worker.example.com//')
    await save(el, 'worker')
    await fill(el, 'PayAddress', 'https://pay.example.com/')
    await save(el, 'payment')
    await fill(el, 'WeChatServerAddress', 'https://wx.example.com/')
    await save(el, 'wechat')
    await waitFor(() => puts().length === 4, 'four saves')
    expect(puts()).to.deep.equal([
      { key: 'ServerAddress', value: 'https://gw.example.com' },
      { key: 'WorkerUrl', value: 'https://worker.example.com' },
      { key: 'PayAddress', value: 'https://pay.example.com' },
      { key: 'WeChatServerAddress', value: 'https://wx.example.com' },
    ])
    const options = await readOptions()
    expect([options.ServerAddress, options.WorkerUrl, options.PayAddress, options.WeChatServerAddress]).to.deep.equal([
      'https://gw.example.com',
      'https://worker.example.com',
      'https://pay.example.com',
      'https://wx.example.com',
    ])
  })

  it('saves payment only once the server address is saved, and checks the top-up group ratio JSON', async () => {
    await asRoot()
    const el = await tab('system')
    puts()
    await fill(el, 'Price', '7.5')
    await save(el, 'payment')
    await waitForToast(el, 'please fill in the server address first')
    expect(puts()).to.deep.equal([])

    await fill(el, 'ServerAddress', 'https://gw.example.com')
    await save(el, 'server')
    await waitFor(() => !section(el, 'server').querySelector('[data-dirty]'), 'the server address saved')
    await fillArea(el, 'TopupGroupRatio', '{"vip": }')
    await waitFor(() => inputHelp(el, 'TopupGroupRatio') === 'top-up group ratio is not a legal JSON string', 'the blur check')
    await save(el, 'payment')
    await waitForToast(el, 'top-up group ratio is not a legal JSON string')
    expect(puts().map((p) => p.key)).to.deep.equal(['ServerAddress'])

    await fillArea(el, 'TopupGroupRatio', '{"default": 1, "vip": 0.9}')
    await fill(el, 'MinTopUp', '0')
    await save(el, 'payment')
    await waitForToast(el, 'Minimum top-up (US dollars): must be a number of at least 1')
    await fill(el, 'MinTopUp', '5')
    await save(el, 'payment')
    await waitFor(() => !section(el, 'payment').querySelector('[data-dirty]'), 'the payment saved')
    const options = await readOptions()
    expect([options.Price, options.MinTopUp, JSON.parse(options.TopupGroupRatio!).vip]).to.deep.equal(['7.5', '5', 0.9])
  })

  it('sends the worker key, Epay fields and secrets only when they are filled in', async () => {
    await setOptions({ EpayId: 'merchant-1', ServerAddress: 'https://gw.example.com' })
    await asRoot()
    const el = await tab('system')
    puts()
    await fill(el, 'WorkerUrl', 'https://worker.example.com')
    await save(el, 'worker')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'WorkerUrl', value: 'https://worker.example.com' }])

    await fill(el, 'WorkerValidKey', 'worker-secret')
    await save(el, 'worker')
    await waitFor(() => puts().length === 2 && !section(el, 'worker').querySelector('[data-dirty]'), 'the key saved')
    expect(puts()[1]).to.deep.equal({ key: 'WorkerValidKey', value: 'worker-secret' })
    expect(await serverCommand('tg-option', { key: 'WorkerValidKey' })).to.equal('worker-secret')
    // the secret is not held: the field is empty again and GET never shows it
    await waitFor(() => inputValue(el, 'WorkerValidKey') === '', 'the secret field cleared')
    expect((await readOptions()).WorkerValidKey).to.equal('')

    // an emptied EpayId and an empty EpayKey are not sent; the other payment change is
    puts().length = 0
    expect(inputValue(el, 'EpayId')).to.equal('merchant-1')
    await fill(el, 'EpayId', '')
    await fill(el, 'Price', '8')
    await save(el, 'payment')
    await waitFor(
      () => puts().length === 1 && section(el, 'payment').querySelector('sl-button[data-save]')?.getAttribute('loading') === null,
    )
    await sleep(100)
    expect(puts()).to.deep.equal([{ key: 'Price', value: '8' }])
    expect(await serverCommand('tg-option', { key: 'EpayId' })).to.equal('merchant-1')

    for (const [key, sectionId] of [
      ['SMTPToken', 'smtp'],
      ['GitHubClientSecret', 'github'],
      ['WeChatServerToken', 'wechat'],
      ['TelegramBotToken', 'telegram'],
      ['TurnstileSecretKey', 'turnstile'],
      ['EpayKey', 'payment'],
    ] as const) {
      puts().length = 0
      await save(el, sectionId)
      await waitForToast(el, 'you seem not to have changed anything')
      expect(puts()).to.deep.equal([])
      await fill(el, key, `${key}-value`)
      await save(el, sectionId)
      await waitFor(() => puts().length === 1 && !section(el, sectionId).querySelector('[data-dirty]'), `the save of ${key}`)
      expect(puts()[0]).to.deep.equal({ key, value: `${key}-value` })
      expect(await serverCommand('tg-option', { key })).to.equal(`${key}-value`)
    }
  })

  it('edits the e-mail domain whitelist as a list and de-duplicates what is added', async () => {
    await setOptions({ EmailDomainWhitelist: 'gmail.com,qq.com' })
    await asRoot()
    const el = await tab('system')
    puts()
    const domains = () => $$(el, '[data-domain]').map((d) => d.getAttribute('data-domain'))
    expect(domains()).to.deep.equal(['gmail.com', 'qq.com'])
    await fill(el, 'domain-input', 'Gmail.com, new.example.com new.example.com')
    $(el, 'sl-button[data-domain-add]')!.click()
    await waitFor(() => domains().length === 3, 'the added domain')
    expect(domains()).to.deep.equal(['gmail.com', 'qq.com', 'new.example.com'])
    await waitForText(el, 'gmail.com is already in the list')
    // Enter adds too, without saving the form
    await fill(el, 'domain-input', 'qq.com')
    inputNamedFocus(el, 'domain-input')
    await sendKeys({ press: 'Enter' })
    await sleep(100)
    expect(domains()).to.deep.equal(['gmail.com', 'qq.com', 'new.example.com'])
    expect(puts()).to.deep.equal([])
    // remove one
    $(el, '[data-domain="qq.com"] sl-icon-button')!.click()
    await waitFor(() => domains().length === 2, 'the removed domain')
    await save(el, 'whitelist')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'EmailDomainWhitelist', value: 'gmail.com,new.example.com' }])
    expect((await readOptions()).EmailDomainWhitelist).to.equal('gmail.com,new.example.com')
  })

  it('hints port 587 and forces SSL on for SMTP port 465', async () => {
    await asRoot()
    const el = await tab('system')
    puts()
    const port = $$<HTMLInputElement & { placeholder: string; helpText: string }>(el, 'sl-input').find((i) => i.name === 'SMTPPort')!
    expect(port.placeholder).to.equal('587')
    expect(port.helpText).to.include('587')
    expect(switchOf(el, 'SMTPSSLEnabled').checked).to.equal(false)
    await fill(el, 'SMTPPort', '465')
    await waitFor(() => switchOf(el, 'SMTPSSLEnabled').checked, 'SSL switched on')
    expect(switchOf(el, 'SMTPSSLEnabled').disabled).to.equal(true)
    expect((switchOf(el, 'SMTPSSLEnabled') as unknown as { helpText: string }).helpText).to.equal('Port 465 always uses SSL.')
    await save(el, 'smtp')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([
      { key: 'SMTPPort', value: '465' },
      { key: 'SMTPSSLEnabled', value: 'true' },
    ])
    const options = await readOptions()
    expect([options.SMTPPort, options.SMTPSSLEnabled]).to.deep.equal(['465', 'true'])
    await fill(el, 'SMTPPort', '587')
    await waitFor(() => !switchOf(el, 'SMTPSSLEnabled').disabled, 'SSL free again')
  })

  it('asks before turning password sign-in off, and saves nothing on cancel', async () => {
    await asRoot()
    const el = await tab('system')
    puts()
    await toggle(el, 'PasswordLoginEnabled')
    await save(el, 'login')
    const dialog = () => section(el, 'login').querySelector<HTMLElement & { open: boolean }>('sl-dialog[data-confirm]')!
    await waitFor(() => dialog().open, 'the confirmation')
    expect(dialog().textContent).to.include('locks out every account that has no other way to sign in')
    dialog().querySelector<HTMLElement>('sl-button[data-confirm-cancel]')!.click()
    await waitFor(() => !dialog().open, 'the dialog closed')
    await sleep(100)
    expect(puts()).to.deep.equal([])
    expect((await readOptions()).PasswordLoginEnabled).to.equal('true')

    await save(el, 'login')
    await waitFor(() => dialog().open, 'the confirmation again')
    dialog().querySelector<HTMLElement>('sl-button[data-confirm-ok]')!.click()
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'PasswordLoginEnabled', value: 'false' }])
    expect((await readOptions()).PasswordLoginEnabled).to.equal('false')
    // turning it back on needs no confirmation
    await toggle(el, 'PasswordLoginEnabled')
    await save(el, 'login')
    await waitFor(() => puts().length === 2)
    expect(dialog().open).to.equal(false)
    expect(puts()[1]).to.deep.equal({ key: 'PasswordLoginEnabled', value: 'true' })
  })
})

function inputValue(el: HTMLElement, name: string): string | undefined {
  return $$<HTMLInputElement>(el, 'sl-input').find((i) => i.name === name)?.value
}

function inputNamedFocus(el: HTMLElement, name: string): void {
  $$<HTMLInputElement>(el, 'sl-input')
    .find((i) => i.name === name)!
    .focus()
}

describe('settings tabs: other', () => {
  afterEach(done)

  it('previews the sanitised HTML of the notice live and saves it as written', async () => {
    await asRoot()
    const el = await tab('other')
    puts()
    const raw =
      '<h3 id="t">Maintenance</h3><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="window.__pwned = 1"><script>window.__pwned = 2</script><a href="javascript:alert(1)">link</a>'
    await fillArea(el, 'Notice', raw, false)
    const preview = await waitFor(() => section(el, 'notice').querySelector('[data-preview-body]'), 'the preview')
    expect(preview.querySelector('h3')!.textContent).to.equal('Maintenance')
    expect(preview.querySelector('script')).to.equal(null)
    expect(preview.querySelector('img')!.hasAttribute('onerror')).to.equal(false)
    expect(preview.querySelector('a')!.getAttribute('href') ?? '').to.not.include('javascript')
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined)
    // live: the preview follows every keystroke
    await fillArea(el, 'Notice', '<p>second <b>version</b></p>', false)
    await waitFor(() => section(el, 'notice').querySelector('[data-preview-body] b')?.textContent === 'version', 'the updated preview')
    await save(el, 'notice')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'Notice', value: '<p>second <b>version</b></p>' }])
    expect((await readOptions()).Notice).to.equal('<p>second <b>version</b></p>')
  })

  it('previews the home page, about and footer; an address is shown as an embedded page', async () => {
    await asRoot()
    const el = await tab('other')
    await fillArea(el, 'HomePageContent', 'https://home.example.com/page', false)
    await waitFor(() =>
      section(el, 'home')
        .querySelector('[data-preview]')!
        .textContent!.includes('This address is shown as an embedded page: https://home.example.com/page'),
    )
    await fillArea(el, 'About', '<p onclick="x()">About us</p>', false)
    const about = await waitFor(() => section(el, 'about').querySelector('[data-preview-body] p'))
    expect(about.textContent).to.equal('About us')
    expect(about.hasAttribute('onclick')).to.equal(false)
    await fillArea(el, 'Footer', '<span class="f">© Example</span><style>body{display:none}</style>', false)
    const footer = await waitFor(() => section(el, 'footer').querySelector('[data-preview-body]'))
    expect(footer.querySelector('.f')!.textContent).to.equal('© Example')
    expect(footer.querySelector('style')).to.equal(null)
    expect(section(el, 'notice').querySelector('[data-preview]')!.textContent).to.include('Nothing to preview yet.')
  })

  it('saves the system name, logo and footer each on its own and refreshes the public status', async () => {
    await asRoot()
    await loadStatus()
    const el = await tab('other')
    puts()
    await fill(el, 'SystemName', 'Acme Gateway')
    await fill(el, 'Logo', 'https://cdn.example.com/logo.png')
    await waitFor(() => $(el, 'img[data-logo-preview]')?.getAttribute('src') === 'https://cdn.example.com/logo.png', 'the logo preview')
    await save(el, 'systemName')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'SystemName', value: 'Acme Gateway' }])
    await waitFor(() => $status.get()?.system_name === 'Acme Gateway', 'the refreshed status')
    expect(section(el, 'logo').querySelector('[data-dirty]')).to.not.equal(null)
    await save(el, 'logo')
    await fillArea(el, 'Footer', '<b>Acme</b> footer', false)
    await save(el, 'footer')
    await waitFor(
      () => $status.get()?.footer_html === '<b>Acme</b> footer' && $status.get()?.logo === 'https://cdn.example.com/logo.png',
      'the footer and logo in the status',
    )
    expect(puts().map((p) => p.key)).to.deep.equal(['SystemName', 'Logo', 'Footer'])
  })
})

describe('settings tabs: keyboard, small screens, dark mode, Chinese', () => {
  afterEach(async () => {
    await setViewport({ width: 800, height: 600 })
    await done()
  })

  it('saves a form with Enter from a text field', async () => {
    await asRoot()
    const el = await tab('operation')
    puts()
    await fill(el, 'SunoVersion', '5.40.0')
    inputNamedFocus(el, 'SunoVersion')
    await sendKeys({ press: 'Enter' })
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'SunoVersion', value: '5.40.0' }])
  })

  it('fits a 375 px screen without sideways scrolling', async () => {
    await setViewport({ width: 375, height: 800 })
    await asRoot()
    for (const name of ['operation', 'system', 'other'] as const) {
      const el = await tab(name)
      await sleep(100)
      const wide = $$(el, '.tg-opt').filter((s) => s.getBoundingClientRect().right > 376)
      expect(
        wide.map((s) => s.getAttribute('data-section')),
        name,
      ).to.deep.equal([])
      expect(document.documentElement.scrollWidth, name).to.be.at.most(375)
      el.remove()
    }
  })

  it('follows dark mode', async () => {
    $prefs.setKey('theme', 'dark')
    await asRoot()
    const el = await tab('system')
    const card = section(el, 'login')
    const bg = getComputedStyle(card).backgroundColor
    const [r, g, b] = bg.match(/\d+/g)!.map(Number)
    expect(r! + g! + b!, bg).to.be.below(200)
    const text = getComputedStyle(card.querySelector('h2')!).color.match(/\d+/g)!.map(Number)
    expect(text[0]! + text[1]! + text[2]!).to.be.above(500)
  })

  it('speaks Simplified Chinese', async () => {
    $prefs.setKey('locale', 'zh')
    await asRoot()
    const el = await tab('operation')
    await waitForText(el, '通用设置')
    expect(textOf(el)).to.include('倍率设置')
    await save(el, 'general')
    await waitForToast(el, '你似乎并没有修改什么')
    await fill(el, 'QuotaForInviter', '-5')
    await save(el, 'quota')
    await waitFor(() => toastTexts(el).some((m) => m.includes('必须是不小于 0 的整数')), 'the Chinese number message')
  })
})

describe('settings tabs inside <tollgate-settings>', () => {
  afterEach(done)

  it('shows the three tabs to the super administrator and saves from them', async () => {
    await asRoot()
    const el = await mount('<tollgate-settings tab="system"></tollgate-settings>')
    await waitFor(() => section(el, 'smtp'), 'the system tab')
    puts()
    await fill(el, 'SMTPPort', '465')
    await waitFor(() => switchOf(el, 'SMTPSSLEnabled').checked, 'SSL switched on')
    await save(el, 'smtp')
    await waitForToast(el, 'saved')
    expect(puts().map((p) => p.key)).to.deep.equal(['SMTPPort', 'SMTPSSLEnabled'])
    $<HTMLElement>(el, '[data-tab-name="other"]')!.click()
    await waitFor(() => section(el, 'notice'), 'the other tab')
    await fillArea(el, 'Notice', '<i>hello</i>', false)
    await waitFor(() => section(el, 'notice').querySelector('[data-preview-body] i')?.textContent === 'hello', 'the preview')
    $<HTMLElement>(el, '[data-tab-name="operation"]')!.click()
    await waitFor(() => section(el, 'ratios'), 'the operation tab')
  })

  it('keeps them from other users', async () => {
    await registerAndSignIn()
    const el = await mount('<tollgate-settings tab="operation"></tollgate-settings>')
    await waitFor(() => $(el, '[data-screen="settings"]'), 'the settings screen')
    await sleep(300)
    expect($(el, '[data-section]')).to.equal(null)
    expect($(el, '[data-tab-name="operation"]')).to.equal(null)
  })
})
