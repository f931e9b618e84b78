/**
 * Answers the elements' /api calls from the fixtures captured from the real server
 * (stories/fixtures, see scripts/capture-fixtures.ts). The derived states change the captured
 * answers, never invent new ones: `loading` never answers, `empty` empties every list, `error`
 * answers HTTP 500 with the captured envelope. A GET without a captured answer is a console
 * error, so the Storybook smoke test fails until the capture covers it.
 */
import type { Answer, FixtureSet, Lang, Role } from '../scripts/capture-fixtures.ts'

export type StoryState = 'ok' | 'loading' | 'empty' | 'error'

interface FixtureFile {
  capturedAt: number
  answers: FixtureSet
}

const files = import.meta.glob<FixtureFile>('../stories/fixtures/*.json', { eager: true, import: 'default' })
const fixture = (name: string): FixtureFile => {
  const file = files[`../stories/fixtures/${name}.json`]
  if (!file) throw new Error(`no fixture file stories/fixtures/${name}.json: run node scripts/capture-fixtures.ts`)
  return file
}

/** The unix time the fixtures were captured at (the stories' clock). */
export const capturedAt = fixture('writes').capturedAt

/** The captured GET answer of `path` for a role, in the language the request asks for. */
export function captured(role: Role, lang: Lang, path: string): Answer | undefined {
  return fixture(`${role}.${lang}`).answers[`GET ${path}`]
}

let current: { role: Role; state: StoryState } = { role: 'signed-out', state: 'ok' }

/** Chooses the answers for the story about to render. */
export function useFixtures(role: Role, state: StoryState): void {
  current = { role, state }
}

function derive(answer: Answer, state: StoryState): Answer {
  const body = answer.body as { success: boolean; message: string; data: unknown }
  if (state === 'empty' && Array.isArray(body.data)) return { status: answer.status, body: { ...body, data: [] } }
  if (state === 'error') return { status: 500, body: { ...body, success: false, message: 'Internal Server Error', data: null } }
  return answer
}

const json = ({ status, body }: Answer) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function answer(request: Request): Promise<Response> | Response {
  const { pathname } = new URL(request.url)
  const method = request.method.toUpperCase()
  if (current.state === 'loading') return new Promise<Response>(() => {})
  if (method !== 'GET') {
    const write = fixture('writes').answers[`${method} ${pathname}`] ?? { status: 200, body: { success: true, message: '', data: null } }
    return json(derive(write, current.state))
  }
  const lang: Lang = /^zh/i.test(request.headers.get('accept-language') ?? '') ? 'zh-CN' : 'en'
  const found = captured(current.role, lang, pathname)
  if (!found) {
    console.error(`[fixtures] no captured answer for GET ${pathname}: add it to scripts/capture-fixtures.ts`)
    return json({ status: 404, body: { success: false, message: `no fixture for ${pathname}`, data: null } })
  }
  return json(derive(found, current.state))
}

/** Replaces window.fetch for /api/… (everything else goes to the network as usual). */
export function installFetchShim(): void {
  const network = window.fetch.bind(window)
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    if (!new URL(request.url).pathname.startsWith('/api/')) return network(input, init)
    return Promise.resolve(answer(request))
  }
}
