import { expect } from '@esm-bundle/chai'
import { TollgateLogin } from '../../elements/index.ts'
import { defineElement } from '../../elements/define.ts'
import { $, cleanup, mount, recordEvents, sleep, textOf, waitFor, waitForText } from './helpers.ts'

const TAGS = ['tollgate-console', 'tollgate-login', 'tollgate-register', 'tollgate-reset', 'tollgate-reset-confirm']

describe('element registration', () => {
  afterEach(cleanup)

  it('registers every element', () => {
    for (const tag of TAGS) expect(customElements.get(tag), tag).to.be.a('function')
  })

  it('leaves an already registered tag alone on a second define', () => {
    const again = defineElement('tollgate-login', () => null, {})
    expect(again).to.equal(TollgateLogin)
    expect(customElements.get('tollgate-login')).to.equal(TollgateLogin)
  })

  it('renders into an open shadow root with the Shoelace theme adopted', async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    expect(el.shadowRoot).to.exist
    expect(el.shadowRoot!.mode).to.equal('open')
    expect(el.shadowRoot!.adoptedStyleSheets.length).to.be.greaterThan(1)
    expect(getComputedStyle(el).getPropertyValue('--sl-color-primary-600').trim()).to.not.equal('')
  })
})

describe('boolean attributes', () => {
  afterEach(cleanup)

  it('is false when absent', async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitForText(el, 'No account yet?')
    expect((el as HTMLElement & { noLinks: boolean }).noLinks).to.equal(false)
  })

  it('is true when present without a value, as in HTML', async () => {
    const el = await mount('<tollgate-login no-links></tollgate-login>')
    await waitFor(() => $(el, 'form'), 'the form')
    await sleep(50)
    expect(textOf(el)).to.not.include('No account yet?')
    expect((el as HTMLElement & { noLinks: boolean }).noLinks).to.equal(true)
  })

  it('turns false when the attribute is removed, and true again when set', async () => {
    const el = await mount<HTMLElement & { noLinks: boolean }>('<tollgate-login no-links></tollgate-login>')
    await waitFor(() => $(el, 'form'), 'the form')
    el.removeAttribute('no-links')
    await waitForText(el, 'No account yet?')
    expect(el.noLinks).to.equal(false)
    el.setAttribute('no-links', '')
    await waitFor(() => !textOf(el).includes('No account yet?'), 'the links to go')
  })

  it('reflects the property to the attribute', async () => {
    const el = await mount<HTMLElement & { noLinks: boolean }>('<tollgate-login></tollgate-login>')
    el.noLinks = true
    expect(el.hasAttribute('no-links')).to.equal(true)
    await waitFor(() => !textOf(el).includes('No account yet?'), 'the links to go')
    el.noLinks = false
    expect(el.hasAttribute('no-links')).to.equal(false)
    await waitForText(el, 'No account yet?')
  })

  it('works when the element is upgraded after parsing', async () => {
    const host = document.createElement('div')
    host.innerHTML = '<tollgate-x-later no-links></tollgate-x-later>'
    document.body.append(host)
    try {
      const el = host.firstElementChild as HTMLElement & { noLinks?: boolean }
      let seen: unknown
      defineElement('tollgate-x-later', ({ noLinks }: { noLinks?: boolean }) => ((seen = noLinks), null), { noLinks: 'boolean' })
      await waitFor(() => seen !== undefined, 'a render')
      expect(seen).to.equal(true)
      expect(el.noLinks).to.equal(true)
    } finally {
      host.remove()
    }
  })
})

describe('events', () => {
  afterEach(cleanup)

  it('fires tollgate-navigate from the host: bubbling, composed, cancelable, object detail', async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    const link = await waitFor(() => $<HTMLAnchorElement>(el, 'a[href="/register"]'), 'the register link')
    let seen: CustomEvent<{ to: string }> | undefined
    const onNavigate = (e: Event) => {
      seen = e as CustomEvent<{ to: string }>
      e.preventDefault()
    }
    document.addEventListener('tollgate-navigate', onNavigate)
    try {
      link.click()
    } finally {
      document.removeEventListener('tollgate-navigate', onNavigate)
    }
    expect(seen).to.exist
    expect(seen!.target).to.equal(el)
    expect(seen!.bubbles).to.equal(true)
    expect(seen!.composed).to.equal(true)
    expect(seen!.cancelable).to.equal(true)
    expect(seen!.detail).to.deep.equal({ to: '/register' })
    expect(location.pathname).to.not.equal('/register')
  })

  it('does not navigate when the host cancels', async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    const rec = recordEvents('tollgate-navigate')
    const cancel = (e: Event) => e.preventDefault()
    document.addEventListener('tollgate-navigate', cancel)
    const before = location.href
    try {
      ;(await waitFor(() => $<HTMLAnchorElement>(el, 'a[href="/reset"]'))).click()
      await sleep(50)
    } finally {
      document.removeEventListener('tollgate-navigate', cancel)
      rec.stop()
    }
    expect(rec.events.map((e) => e.detail.to)).to.deep.equal(['/reset'])
    expect(location.href).to.equal(before)
  })
})

describe('lang attribute', () => {
  afterEach(cleanup)

  it('forces the language of one element', async () => {
    const zh = await mount('<tollgate-login lang="zh-CN"></tollgate-login>')
    const en = await mount('<tollgate-login></tollgate-login>')
    await waitForText(zh, '登录')
    await waitForText(en, 'Sign in')
    expect(textOf(en)).to.not.include('还没有账户')
  })
})

describe('appearance hooks', () => {
  afterEach(cleanup)

  it('exposes the documented parts', async () => {
    const login = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(login, '[part="form"]'), 'the form part')
    expect($(login, '[part="submit-button"]')).to.exist
    const console = await mount('<tollgate-console no-footer></tollgate-console>')
    await waitFor(() => $(console, '[part="header"]'), 'the header part')
    expect($(console, '[part="sidebar"]')).to.exist
    expect($(console, '[part="content"]')).to.exist
  })

  it('lets the host page restyle Shoelace tokens on the element', async () => {
    const el = await mount('<tollgate-login style="--sl-color-primary-600: rgb(1, 2, 3)"></tollgate-login>')
    const button = await waitFor(() => $<HTMLElement>(el, '[part="submit-button"]'), 'the button')
    expect(getComputedStyle(button).getPropertyValue('--sl-color-primary-600').trim()).to.equal('rgb(1, 2, 3)')
  })
})
