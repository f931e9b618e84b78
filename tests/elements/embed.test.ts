/**
 * The embedding contract of the elements (issue 11): events come from the right elements, every
 * element follows the shared session, the sign-in box shows who is signed in, an element off the
 * gateway's origin never sends the visitor away, and the configuration is read when a request
 * leaves, not when it was asked for.
 */
import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { signOut } from '../../elements/index.ts'
import { get } from '../../src/api/client.ts'
import { configure } from '../../src/stores/config.ts'
import { $session, expireSession } from '../../src/stores/session.ts'
import { refreshUser } from '../../src/stores/account.ts'
import {
  CONSOLE_HEADER,
  $,
  cleanup,
  fill,
  mount,
  recordEvents,
  registerAndSignIn,
  serverCommand,
  signInAs,
  stayOnPage,
  submit,
  submitButton,
  textOf,
  uniqueName,
  waitFor,
  waitForText,
} from './helpers.ts'

const signedOutEverywhere = async (...els: HTMLElement[]) => {
  for (const el of els) await waitFor(() => !$(el, '[data-signed-in]') && !textOf(el).includes('Signed in as'), 'the signed-out view')
}

describe('embedding: events and the shared session', () => {
  afterEach(cleanup)

  it('tollgate-logout fires on every element when signOut() is called', async () => {
    await registerAndSignIn()
    const login = await mount('<tollgate-login></tollgate-login>')
    const pricing = await mount('<tollgate-pricing></tollgate-pricing>')
    const topup = await mount('<tollgate-topup></tollgate-topup>')
    await waitFor(() => $(login, '[data-signed-in]'), 'the signed-in state')
    const rec = recordEvents('tollgate-logout')
    try {
      await signOut()
      expect(rec.events.map((e) => e.target)).to.have.members([login, pricing, topup])
      expect($session.get()).to.equal(null)
      await signedOutEverywhere(login)
    } finally {
      rec.stop()
    }
  })

  it('a request answered 401 while signOut() ends the session is that sign-out, not an expiry: nobody is sent away', async () => {
    await registerAndSignIn()
    const login = await mount('<tollgate-login></tollgate-login>')
    await waitFor(() => $(login, '[data-signed-in]'), 'the signed-in state')
    const stay = stayOnPage()
    const rec = recordEvents('tollgate-logout', 'tollgate-session-expired')
    try {
      // while the server ends the session, a request that was in flight comes back 401: the API
      // client then calls expireSession(), as here
      const ending = signOut()
      expireSession()
      await ending
      expect(rec.events.map((e) => e.type)).to.deep.equal(['tollgate-logout'])
      expect(stay.targets).to.deep.equal([])
      expect($session.get()).to.equal(null)
    } finally {
      stay.stop()
      rec.stop()
    }
  })

  it('the sign-in box signs in, shows who and the balance, and its sign-out button ends the session for every element', async () => {
    const username = uniqueName()
    await registerAndSignIn(username)
    await fetch('/api/user/logout', CONSOLE_HEADER)
    $session.set(null)
    const stay = stayOnPage()
    const rec = recordEvents('tollgate-login', 'tollgate-logout')
    try {
      const login = await mount('<tollgate-login></tollgate-login>')
      const topup = await mount('<tollgate-topup></tollgate-topup>')
      await fill(login, 'username', username)
      await fill(login, 'password', 'password123')
      await submit(login)
      const card = await waitFor(() => $(login, '[data-signed-in]'), 'the signed-in state')
      expect(card.querySelector('[data-user]')!.textContent).to.equal(username)
      expect(card.querySelector('[data-balance]')!.textContent).to.be.a('string').and.not.equal('')
      const loginEvent = rec.events.find((e) => e.type === 'tollgate-login')!
      expect(loginEvent.detail.user.username).to.equal(username)
      expect(JSON.stringify(loginEvent.detail)).not.to.include('access_token')
      // the wallet next to it knows the user without a reload
      await waitFor(() => !textOf(topup).includes('Sign in'), 'the wallet to show the balance')
      ;(card.querySelector('sl-button') as HTMLElement).click()
      await waitFor(() => rec.events.filter((e) => e.type === 'tollgate-logout').length === 2, 'tollgate-logout on both elements')
      expect(rec.events.filter((e) => e.type === 'tollgate-logout').map((e) => e.target)).to.have.members([login, topup])
      await waitForText(login, 'Sign in')
      // the server ended the session: the cookie no longer signs anyone in
      expect((await fetch('/api/user/self')).status).to.equal(401)
    } finally {
      stay.stop()
      rec.stop()
    }
  })

  it('every element shows a new balance without a reload when the session changes in another', async () => {
    const user = await registerAndSignIn()
    const login = await mount('<tollgate-login></tollgate-login>')
    const balance = () => $(login, '[data-balance]')?.textContent
    const before = await waitFor(balance, 'the balance')
    $session.set({ ...user, quota: user.quota + 5_000_000 })
    await waitFor(() => balance() !== before, 'the new balance')
  })

  it('tollgate-error comes from the element whose request failed, with status 200 and kind refused', async () => {
    await registerAndSignIn()
    const pricing = await mount('<tollgate-pricing></tollgate-pricing>')
    const topup = await mount('<tollgate-topup></tollgate-topup>')
    await waitFor(() => topup.shadowRoot!.querySelector('[data-testid="redeem-form"]'), 'the redeem form')
    const rec = recordEvents('tollgate-error')
    try {
      await fill(topup, 'code', 'no-such-code')
      await submit(topup)
      await waitFor(() => rec.events.length, 'tollgate-error')
      expect(rec.events).to.have.length(1)
      expect(rec.events[0]!.target).to.equal(topup)
      expect(rec.events[0]!.target).not.to.equal(pricing)
      expect(rec.events[0]!.detail.status).to.equal(200)
      expect(rec.events[0]!.detail.kind).to.equal('refused')
    } finally {
      rec.stop()
    }
  })

  it('off the gateway origin an element alone never leaves the page: it asks with tollgate-navigate and stays', async () => {
    const topup = await mount('<tollgate-topup></tollgate-topup>')
    const link = await waitFor(() => $(topup, 'a[href="/login"]') ?? $(topup, '.tg-button--primary'), 'the sign-in link')
    const rec = recordEvents('tollgate-navigate')
    const href = location.href
    const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
    configure({ apiBase: `${location.protocol}//${other}:${location.port}` })
    try {
      ;(link as HTMLElement).click()
      await waitFor(() => rec.events.length, 'tollgate-navigate')
      expect(rec.events[0]!.detail.to).to.equal('/login')
      expect(rec.events[0]!.defaultPrevented).to.equal(false)
      await new Promise((r) => setTimeout(r, 300))
      expect(location.href).to.equal(href)
    } finally {
      rec.stop()
    }
  })

  it('configure() takes effect for a request asked for just before it, in the same task', async () => {
    await signInAs('root', '123456')
    const pending = get('/api/status')
    configure({ apiBase: 'http://127.0.0.1:9' })
    let failed = false
    await pending.catch(() => (failed = true))
    expect(failed).to.equal(true)
  })
})

describe('embedding: one brand colour from the host', () => {
  afterEach(cleanup)

  /** Waits until the primary button's background settles on `colour` (Shoelace buttons transition it). */
  const buttonTurns = async (el: HTMLElement, colour: string) => {
    const button = await waitFor(() => submitButton(el.shadowRoot!), 'the submit button')
    await (button as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
    const background = () => getComputedStyle(button.shadowRoot!.querySelector('[part~="base"]')!).backgroundColor
    await waitFor(() => background() === colour, `the button to be ${colour} (it is ${background()})`)
  }

  it('--tollgate-brand sets the primary buttons, the whole primary scale and the focus rings', async () => {
    const el = await mount('<tollgate-login style="--tollgate-brand: rgb(200, 30, 90)"></tollgate-login>')
    await buttonTurns(el, 'rgb(200, 30, 90)')
    const style = getComputedStyle(el)
    for (const step of [50, 100, 300, 500, 700, 900, 950])
      expect(style.getPropertyValue(`--sl-color-primary-${step}`)).to.include('rgb(200, 30, 90)')
    expect(style.getPropertyValue('--sl-focus-ring')).to.include('rgb(200, 30, 90)')
    expect(style.getPropertyValue('--sl-input-focus-ring-color')).to.include('rgb(200, 30, 90)')
  })

  it('set on the page (:root) it reaches every element; unset, Shoelace keeps its own sky scale', async () => {
    const plain = await mount('<tollgate-login></tollgate-login>')
    await buttonTurns(plain, 'rgb(2, 132, 199)')
    document.documentElement.style.setProperty('--tollgate-brand', '#0a7d32')
    try {
      await buttonTurns(plain, 'rgb(10, 125, 50)')
    } finally {
      document.documentElement.style.removeProperty('--tollgate-brand')
    }
  })
})

describe('embedding: the embed credential (another origin than the gateway)', () => {
  afterEach(cleanup)

  /** The same gateway under the page's other loopback name: another origin, so embed mode. */
  const otherOrigin = () => `${location.protocol}//${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}`

  it('keeps the tgs_ credential under the gateway key, never an access token; a 401 forgets it on every element', async () => {
    const username = uniqueName()
    await registerAndSignIn(username)
    await fetch('/api/user/logout', CONSOLE_HEADER)
    $session.set(null)
    await serverCommand('tg-options', { EmbedOrigins: location.origin })
    const gateway = otherOrigin()
    configure({ apiBase: gateway })
    const stay = stayOnPage()
    const rec = recordEvents('tollgate-session-expired', 'tollgate-logout')
    try {
      const login = await mount('<tollgate-login></tollgate-login>')
      const topup = await mount('<tollgate-topup></tollgate-topup>')
      await fill(login, 'username', username)
      await fill(login, 'password', 'password123')
      await submit(login)
      await waitFor(() => $(login, '[data-signed-in]'), 'the signed-in state')
      const stored = JSON.parse(localStorage.getItem(`tollgate:session:${gateway}`)!)
      expect(stored.token).to.match(/^tgs_/)
      expect(localStorage.getItem('tollgate:user')).not.to.include('access_token')
      expect(localStorage.getItem('tollgate:user')).not.to.include('tgs_')
      // the server ends the credential behind the page's back; the next call is a 401
      const out = await fetch(`${gateway}/api/user/logout`, { headers: { authorization: `Bearer ${stored.token}` } })
      expect(out.status).to.equal(200)
      await refreshUser()
      await waitFor(() => rec.events.filter((e) => e.type === 'tollgate-logout').length === 2, 'tollgate-logout on both elements')
      expect(rec.events.map((e) => [e.type, e.target])).to.deep.equal([
        ['tollgate-session-expired', login],
        ['tollgate-session-expired', topup],
        ['tollgate-logout', login],
        ['tollgate-logout', topup],
      ])
      expect(localStorage.getItem(`tollgate:session:${gateway}`)).to.equal(null)
      expect($session.get()).to.equal(null)
    } finally {
      stay.stop()
      rec.stop()
    }
  })
})
