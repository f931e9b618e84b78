import { expect } from '@esm-bundle/chai'
import '../../elements/index.ts'
import { call, get } from '../../src/api/client.ts'
import { ApiError } from '../../src/api/errors.ts'
import { configure } from '../../elements/index.ts'
import { $session } from '../../src/stores/session.ts'
import * as accountApi from '../../src/api/account.ts'
import { refreshStatus, $status } from '../../src/stores/status.ts'
import {
  CONSOLE_HEADER,
  cleanup,
  goTo,
  mount,
  toastTexts,
  recordEvents,
  registerAndSignIn,
  serverCommand,
  stayOnPage,
  textOf,
  waitFor,
  waitForText,
  waitForToast,
} from './helpers.ts'

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p
  } catch (e) {
    expect(e).to.be.instanceOf(ApiError)
    return e as ApiError
  }
  throw new Error('the call did not fail')
}

describe('the API client: global response handling (spec section 8)', () => {
  afterEach(cleanup)

  it("429 from the real server: 'too many requests, try again later'", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await serverCommand('tg-critical-limit', { limit: 1 })
    // the first call may still fit in the window; the second cannot (sign-in has its own
    // per-account limit; the password-reset confirmation keeps the critical one)
    await accountApi.confirmPasswordReset('nobody@example.com', 'wrong').catch(() => undefined)
    const error = await failure(accountApi.confirmPasswordReset('nobody@example.com', 'wrong'))
    expect(error.status).to.equal(429)
    await waitForToast(el, 'too many requests, try again later')
  })

  it("500: 'server internal error, contact the administrator'", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    const error = await failure(call('GET', '/__status/500'))
    expect(error.status).to.equal(500)
    expect(error.message).to.equal('server internal error, contact the administrator')
    await waitForToast(el, 'server internal error, contact the administrator')
  })

  it("405: 'this site is for demonstration only, no server'", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await failure(call('GET', '/__status/405'))
    await waitForToast(el, 'this site is for demonstration only, no server')
  })

  it("any other failure: 'Error: {message}' with the server's message", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    const error = await failure(get('/api/no-such-call'))
    expect(error.status).to.equal(404)
    await waitForToast(el, 'Error: no such call: GET /api/no-such-call')
  })

  it("success false: the server's message as an error toast, and tollgate-error from the element", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    const rec = recordEvents('tollgate-error')
    try {
      const error = await failure(accountApi.login('root', 'not-the-password'))
      expect(error.status).to.equal(200)
      await waitForToast(el, 'wrong username or password, or the user has been banned')
      expect(rec.events).to.have.length(1)
      expect(rec.events[0]!.target).to.equal(el)
      expect(rec.events[0]!.detail).to.deep.equal({
        status: 200,
        kind: 'refused',
        message: 'wrong username or password, or the user has been banned',
      })
    } finally {
      rec.stop()
    }
  })

  it('shows the messages in Simplified Chinese when the page is in zh', async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    const { setLocale } = await import('../../src/stores/prefs.ts')
    setLocale('zh')
    await failure(call('GET', '/__status/500'))
    await waitForToast(el, '服务器内部错误，请联系管理员')
  })

  it("says 'cannot connect to the server normally' when the status cannot load, and keeps the cached copy", async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    await refreshStatus()
    const cached = $status.get()
    expect(cached?.system_name).to.be.a('string')
    configure({ apiBase: 'http://127.0.0.1:9' })
    await refreshStatus()
    await waitForToast(el, 'cannot connect to the server normally')
    expect($status.get()).to.deep.equal(cached)
    expect(toastTexts(el).filter((t) => t.startsWith('Error:'))).to.deep.equal([])
  })

  it('tollgate-error carries the HTTP status and kind http for an HTTP failure, network for no answer', async () => {
    const el = await mount('<tollgate-reset></tollgate-reset>')
    const rec = recordEvents('tollgate-error')
    try {
      await failure(call('GET', '/__status/500'))
      configure({ apiBase: 'http://127.0.0.1:9' })
      await failure(call('GET', '/api/status'))
      expect(rec.events.map((e) => [e.target, e.detail.status, e.detail.kind])).to.deep.equal([
        [el, 500, 'http'],
        [el, 0, 'network'],
      ])
    } finally {
      rec.stop()
    }
  })
})

describe('401: the session expires', () => {
  afterEach(cleanup)

  it('clears the stored user, emits tollgate-session-expired and shows /login with the expiry notice', async () => {
    const user = await registerAndSignIn()
    // the server forgets this browser; the stored copy of the user stays
    await fetch('/api/user/logout', CONSOLE_HEADER)
    expect($session.get()?.id).to.equal(user.id)
    goTo('/token')
    const rec = recordEvents('tollgate-session-expired', 'tollgate-navigate')
    try {
      const el = await mount('<tollgate-console></tollgate-console>')
      await waitFor(() => location.pathname === '/login', 'the redirect to /login')
      expect(new URLSearchParams(location.search).get('expired')).to.equal('true')
      expect($session.get()).to.equal(null)
      expect(localStorage.getItem('tollgate:user')).to.equal(null)
      const expired = rec.events.filter((e) => e.type === 'tollgate-session-expired')
      expect(expired).to.have.length(1)
      expect(expired[0]!.target).to.equal(el)
      expect(expired[0]!.detail).to.deep.equal({ redirect: '/login?expired=true' })
      expect(rec.events.some((e) => e.type === 'tollgate-navigate' && e.detail.to === '/login?expired=true')).to.equal(true)
      await waitForText(el, 'not logged in or login expired, please log in again')
      expect(textOf(el)).to.include('Sign in')
    } finally {
      rec.stop()
    }
  })
})

describe('401 on several requests at once', () => {
  afterEach(cleanup)

  it('tells the page of the expiry once, however many requests in flight get their 401', async () => {
    await registerAndSignIn()
    await fetch('/api/user/logout', CONSOLE_HEADER)
    // the element layer tells the page through its elements: one on the page, kept on it
    const stay = stayOnPage()
    await mount('<tollgate-reset></tollgate-reset>')
    const rec = recordEvents('tollgate-session-expired')
    try {
      const answers = await Promise.allSettled([call('GET', '/api/user/self'), call('GET', '/api/token/'), call('GET', '/api/user/self')])
      expect(answers.map((a) => a.status)).to.deep.equal(['rejected', 'rejected', 'rejected'])
      expect(rec.events).to.have.length(1)
      // signed in again, the next expiry is told again
      await registerAndSignIn()
      await fetch('/api/user/logout', CONSOLE_HEADER)
      await failure(call('GET', '/api/user/self'))
      expect(rec.events).to.have.length(2)
    } finally {
      rec.stop()
      stay.stop()
    }
  })
})

describe('the public API: configure(), signIn(), signOut() and api-base', () => {
  afterEach(cleanup)

  it('signIn() shows the user in every element; signOut() ends the server session and forgets the user', async () => {
    const { signIn, signOut } = await import('../../elements/index.ts')
    const user = await registerAndSignIn()
    $session.set(null)
    goTo('/')
    const el = await mount('<tollgate-console></tollgate-console>')
    await waitFor(() => el.shadowRoot!.querySelector('[data-link="login"]'), 'the sign-in link')
    signIn(user)
    await waitFor(() => el.shadowRoot!.querySelector('[data-action="account"]'), 'the account menu')
    await signOut()
    expect($session.get()).to.equal(null)
    expect((await fetch('/api/user/self')).status).to.equal(401)
    await waitFor(() => el.shadowRoot!.querySelector('[data-link="login"]'), 'the sign-in link again')
  })

  it('takes the gateway address from the api-base attribute', async () => {
    const { $config } = await import('../../src/stores/config.ts')
    await mount(`<tollgate-reset api-base="${location.origin}/"></tollgate-reset>`)
    expect($config.get().apiBase).to.equal(location.origin)
  })
})
