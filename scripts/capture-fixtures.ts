/**
 * Captures the answers Storybook's stories replay (`node scripts/capture-fixtures.ts [outDir]`,
 * default stories/fixtures): starts the REAL server in-process on a temp SQLite database, seeds it
 * through the HTTP API (root, a user, channels against the fake upstream, tokens, redemption codes,
 * relayed requests that write logs, options), then records every GET answer the elements read, for
 * each state (signed out, user, root) in English and Chinese, plus the answers of the writes the
 * seeding made. Stories never invent data: a change of the wire format changes these files, and
 * tests/package/storybook.test.ts fails when a fresh capture's shape differs from the committed one.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format } from 'prettier'
import { startServer, Client, type TestServer } from '../tests/server/helpers.ts'
import { startFakeUpstream } from '../tests/fake-upstream.ts'
import { relayOf } from '../server/relay/index.ts'

/** One recorded exchange: the HTTP status and the parsed JSON body. */
export interface Answer {
  status: number
  body: unknown
}
/** `METHOD /path` → answer (the query the elements add is not part of the key: stories answer by path). */
export type FixtureSet = Record<string, Answer>

export const ROLES = ['signed-out', 'user', 'admin'] as const
export const LANGS = ['en', 'zh-CN'] as const
export type Role = (typeof ROLES)[number]
export type Lang = (typeof LANGS)[number]

const TASK_PATHS = ['/api/mj/', '/api/suno/', '/api/luma/', '/api/luma/v2/', '/api/viggle/', '/api/runway/', '/api/pika/', '/api/kling/']

/** Every GET the elements make on first paint, with the query they send (p is 0-based). */
function reads(now: number): string[] {
  const week = `start_timestamp=${now - 7 * 86400}&end_timestamp=${now + 3600}`
  return [
    '/api/status',
    '/api/notice',
    '/api/about',
    '/api/home_page_content',
    '/api/pricing',
    '/api/user/self',
    '/api/user/aff',
    '/api/user/models',
    '/api/models',
    '/api/token/?p=0&size=10',
    '/api/log/self/?p=0&page_size=10',
    '/api/log/self/stat',
    `/api/data/self?${week}`,
    `/api/data/self/breakdown?${week}&by=model&granularity=day`,
    '/api/channel/?p=0&page_size=10&id_sort=false',
    '/api/channel/models',
    '/api/user/?p=0',
    '/api/group/',
    '/api/redemption/?p=0',
    '/api/option/',
    '/api/log/?p=0&page_size=10',
    '/api/log/stat',
    `/api/data/?${week}`,
    `/api/data/breakdown?${week}&by=model&granularity=day`,
    ...TASK_PATHS.flatMap((p) => [`${p}self/?p=0`, `${p}?p=0`]),
  ]
}

const keyOf = (method: string, path: string) => `${method} ${path.split('?')[0]}`

/** Seeds the server through its HTTP API; returns the signed-in clients and the writes' answers. */
async function seed(s: TestServer, upstreamUrl: string) {
  const writes: FixtureSet = {}
  const write = async (who: Client, method: string, path: string, body: unknown) => {
    const r = await who.call(method, path, body)
    if (!r.body.success) throw new Error(`${method} ${path}: ${r.body.message}`)
    writes[keyOf(method, path)] ??= { status: r.status, body: r.body }
    return r.body.data
  }
  const root = await s.root()
  for (const [key, value] of Object.entries({
    SystemName: 'Tollgate Demo',
    Notice: 'Maintenance on Sunday 02:00–03:00 UTC.',
    About: 'Tollgate Demo serves the models of several providers behind one key.',
    QuotaForNewUser: '500000',
  })) {
    await write(root, 'PUT', '/api/option/', { key, value })
  }
  const channel = { type: 1, group: 'default', base_url: upstreamUrl }
  await write(root, 'POST', '/api/channel/', { ...channel, name: 'openai-main', key: 'sk-main', models: 'gpt-4o,gpt-4o-mini' })
  await write(root, 'POST', '/api/channel/', { ...channel, name: 'openai-backup', key: 'sk-backup', models: 'gpt-4o-mini' })
  const codes = (await write(root, 'POST', '/api/redemption/', { name: 'welcome', quota: 500000, count: 3 })) as string[]

  const user = new Client(s)
  await write(user, 'POST', '/api/user/register', { username: 'alice', password: 'alice-pass-1', password2: 'alice-pass-1' })
  await write(user, 'POST', '/api/user/login', { username: 'alice', password: 'alice-pass-1' })
  await write(user, 'POST', '/api/user/topup', { key: codes[0] })
  const token = (await write(user, 'POST', '/api/token/', { name: 'laptop', remain_quota: 500000 })) as { key: string }
  await write(user, 'POST', '/api/token/', { name: 'ci', unlimited_quota: true })

  const engine = relayOf(s.ctx)
  await engine.whenReady()
  await engine.loadAll()
  for (const [model, content] of [
    ['gpt-4o', 'Say hello'],
    ['gpt-4o-mini', 'Name three rivers'],
    ['gpt-4o-mini', 'Count to five'],
  ]) {
    const res = await s.app.request('http://localhost/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key.replace(/^sk-/, '')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
    })
    if (res.status !== 200) throw new Error(`relay ${model}: HTTP ${res.status} ${await res.text()}`)
  }
  await engine.idle()
  return { clients: { 'signed-out': s.anon, user, admin: root } satisfies Record<Role, Client>, writes }
}

/** Captures every set into `outDir`: `<role>.<lang>.json` and `writes.json`. Returns the file names. */
export async function capture(outDir: string): Promise<string[]> {
  const s = await startServer('sqlite')
  const upstream = await startFakeUpstream()
  try {
    const { clients, writes } = await seed(s, upstream.url)
    const now = Math.floor(Date.now() / 1000)
    mkdirSync(outDir, { recursive: true })
    const files: string[] = []
    // formatted as the lint's Prettier check wants them
    const save = async (name: string, value: unknown) => {
      writeFileSync(join(outDir, name), await format(JSON.stringify(value), { parser: 'json', printWidth: 140 }))
      files.push(name)
    }
    for (const role of ROLES) {
      for (const lang of LANGS) {
        const set: FixtureSet = {}
        for (const path of reads(now)) {
          const r = await clients[role].call('GET', path, undefined, { 'accept-language': lang })
          set[keyOf('GET', path)] = { status: r.status, body: r.body }
        }
        await save(`${role}.${lang}.json`, { capturedAt: now, answers: set })
      }
    }
    await save('writes.json', { capturedAt: now, answers: writes })
    return files
  } finally {
    await upstream.close()
    await s.close()
  }
}

if (import.meta.main) {
  const out = process.argv[2] ?? 'stories/fixtures'
  const files = await capture(out)
  console.log(`captured ${files.length} fixture files into ${out}: ${files.join(', ')}`)
}
