/**
 * The soak's checks across instances: options and channels follow a change on another instance;
 * sessions made on one answer on all and end on all at once; spending stays covered.
 */
import type { ServerProcess } from '../tests/server/processes.ts'
import { chat, seed, signInRoot, sleep } from '../tests/server/processes.ts'
import type { Seed } from '../tests/server/processes.ts'
import { openDatabase } from '../server/db/index.ts'

const LIMIT_MS = 5000

async function signIn(base: string): Promise<Record<string, string>> {
  const { cookie, id } = await signInRoot(base)
  return { cookie, 'new-api-user': String(id), 'content-type': 'application/json' }
}

async function api(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const json = (await res.json()) as { success: boolean; message: string; data: any }
  if (!json.success) throw new Error(`${method} ${path}: ${json.message}`)
  return json.data
}

/** Milliseconds until `check` holds on every one of `bases` (polled every 20 ms; LIMIT_MS at most). */
async function until(bases: string[], check: (base: string) => Promise<boolean>): Promise<number> {
  const t0 = Date.now()
  const pending = new Set(bases)
  while (pending.size && Date.now() - t0 < LIMIT_MS) {
    for (const b of [...pending]) if (await check(b)) pending.delete(b)
    if (pending.size) await sleep(20)
  }
  return Date.now() - t0
}

const others = (servers: ServerProcess[], i: number) => servers.filter((_, j) => j !== i).map((s) => s.base)

/** Changes SystemName on one instance; returns how long until /api/status shows it on the other two. */
export async function optionChange(servers: ServerProcess[], round: number): Promise<number> {
  const i = round % servers.length
  const value = `Soak ${round} ${Date.now()}`
  await api(servers[i].base, await signIn(servers[i].base), 'PUT', '/api/option/', { key: 'SystemName', value })
  return until(others(servers, i), async (b) => (await api(b, {}, 'GET', '/api/status')).system_name === value)
}

/**
 * Disables the channel on one instance and enables it on another; returns the slower of the two to
 * reach the rest, and how many of the probing calls (on the seeded token) were answered.
 */
export async function channelChange(servers: ServerProcess[], s: Seed): Promise<{ ms: number; answered: number }> {
  let answered = 0
  const probe = async (b: string) => {
    const how = await chat(b, s.key, false)
    if (how === 'answered') answered++
    return how
  }
  const set = async (i: number, status: number) => {
    const h = await signIn(servers[i].base)
    const ch = await api(servers[i].base, h, 'GET', `/api/channel/${s.channelId}`)
    await api(servers[i].base, h, 'PUT', '/api/channel/', { ...ch, status })
  }
  await set(0, 2)
  const off = await until(others(servers, 0), async (b) => (await probe(b)) !== 'answered')
  await set(1, 1)
  const on = await until(others(servers, 1), async (b) => (await probe(b)) === 'answered')
  return { ms: Math.max(off, on), answered }
}

/**
 * Spends one token with little quota through the proxy (all three instances) at concurrency 30
 * until every call is refused, then reads its balance once the instances have written their batches.
 */
export async function spendDown(proxy: string, dataDir: string, databaseUrl: string) {
  const t = await seed(dataDir, databaseUrl, { name: 'spender', quota: 1_000_000_000, remain: 20_000 })
  let answered = 0
  let refused = 0
  let refusedInARow = 0
  let failed = 0
  const worker = async () => {
    while (refusedInARow < 60) {
      const how = await chat(proxy, t.key, false)
      if (how === 'answered') answered++
      if (how === 'refused') refused++
      if (how === 'failed' && ++failed > 200) throw new Error('the spending calls keep failing')
      refusedInARow = how === 'refused' ? refusedInARow + 1 : 0
    }
  }
  await Promise.all(Array.from({ length: 30 }, worker))
  // then one at a time, until not even one estimate is left
  for (let how = await chat(proxy, t.key, false); how !== 'refused'; how = await chat(proxy, t.key, false))
    if (how === 'answered') answered++
  await sleep(1500)
  const database = await openDatabase({ databaseUrl, dataDir })
  try {
    const row = await database.db.selectFrom('tokens').select('remain_quota').where('id', '=', t.tokenId).executeTakeFirstOrThrow()
    return { answered, refused, lowest: Number(row.remain_quota) }
  } finally {
    await database.close()
  }
}

/** The embedding site the soak's instances allow (CORS_ORIGINS), for the embed credential. */
export const SOAK_EMBED_ORIGIN = 'https://shop.soak.example'

/** Who the credential names on `base` (the user id), or the HTTP status when it is refused. */
async function whoAmI(base: string, headers: Record<string, string>): Promise<number | string> {
  const res = await fetch(`${base}/api/user/self`, { headers })
  if (res.status !== 200) return `HTTP ${res.status}`
  const body = (await res.json()) as { success: boolean; data?: { id: number } }
  return body.success && body.data ? body.data.id : 'refused'
}

async function embedSignIn(base: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SOAK_EMBED_ORIGIN },
    body: JSON.stringify({ username: 'root', password: '123456' }),
  })
  const body = (await res.json()) as { success: boolean; message: string; data?: { session?: { token: string } } }
  const token = body.data?.session?.token
  if (!body.success || !token?.startsWith('tgs_')) throw new Error(`embed sign-in failed: ${body.message}`)
  return { authorization: `Bearer ${token}`, origin: SOAK_EMBED_ORIGIN }
}

/**
 * Sessions are the servers' (issue 10): a cookie session and an embed credential made on one
 * instance answer on every instance, and a logout on another instance ends them on all at once
 * (checked right after the logout answers, with no wait). Returns the problems found.
 */
export async function sessionsShared(servers: ServerProcess[], round: number): Promise<string[]> {
  const problems: string[] = []
  const bases = servers.map((s) => s.base)
  const n = bases.length
  const kinds = [
    { name: 'cookie session', open: () => signIn(bases[round % n]!) },
    { name: 'embed credential', open: () => embedSignIn(bases[(round + 1) % n]!) },
  ]
  for (const kind of kinds) {
    const headers = await kind.open()
    const before = await Promise.all(bases.map((b) => whoAmI(b, headers)))
    before.forEach((who, i) => {
      if (typeof who !== 'number')
        problems.push(`round ${round}: a ${kind.name} made on another instance is refused on instance ${i} (${who})`)
    })
    const out = await fetch(`${bases[(round + 2) % n]}/api/user/logout`, { headers })
    if (!((await out.json()) as { success: boolean }).success) problems.push(`round ${round}: the ${kind.name}'s logout failed`)
    const after = await Promise.all(bases.map((b) => whoAmI(b, headers)))
    after.forEach((who, i) => {
      if (who !== 'HTTP 401')
        problems.push(`round ${round}: a ${kind.name} logged out on another instance still answers on instance ${i} (${who})`)
    })
  }
  return problems
}
