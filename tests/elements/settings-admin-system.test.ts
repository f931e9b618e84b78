import { expect } from '@esm-bundle/chai'
import { sendKeys } from '@web/test-runner-commands'
import '../../elements/settings.ts'
import { $, $$, fill, serverCommand, setOptions, sleep, waitFor, waitForText, waitForToast } from './helpers.ts'
import {
  rootTab,
  section,
  save,
  fillArea,
  switchOf,
  toggle,
  readOptions,
  puts,
  done,
  inputHelp,
  inputValue,
  inputNamedFocus,
} from './settings-admin-helpers.ts'

describe('settings tabs: system rules', () => {
  afterEach(done)

  it('drops the trailing slash of the server, worker, payment and WeChat server addresses', async () => {
    const el = await rootTab('system')
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
    const el = await rootTab('system')
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
    const el = await rootTab('system')
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
    const el = await rootTab('system')
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
    const el = await rootTab('system')
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
    const el = await rootTab('system')
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

  it('edits the embedding sites (EmbedOrigins): origins one a line, refusing one with a path', async () => {
    const el = await rootTab('system')
    await fillArea(el, 'EmbedOrigins', 'https://shop.example/path')
    await save(el, 'embed')
    await waitFor(() => (inputHelp(el, 'EmbedOrigins') ?? '').includes('is not a site origin'), 'the origin check')
    expect(puts()).to.deep.equal([])
    await fillArea(el, 'EmbedOrigins', 'https://Shop.Example/\nhttp://127.0.0.1:8080, https://shop.example')
    await save(el, 'embed')
    await waitForToast(el, 'saved')
    expect(puts()).to.deep.equal([{ key: 'EmbedOrigins', value: 'https://shop.example\nhttp://127.0.0.1:8080' }])
    expect((await readOptions()).EmbedOrigins).to.equal('https://shop.example\nhttp://127.0.0.1:8080')
  })
})
