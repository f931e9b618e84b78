/**
 * The front doors in the relay benchmark: the request each door's clients send, and their table
 * beside chat completions. `responses` goes to the OpenAI channel, which keeps its own
 * /v1/responses (passed through); `responses-tr`, `messages` and `gemini` are translated through
 * the chat completions shape (responses-tr names a model only an OpenAI-compatible channel without
 * a Responses API serves).
 */

export type Door = 'chat' | 'responses' | 'responses-tr' | 'messages' | 'gemini'

export const DOORS: readonly Door[] = ['chat', 'responses', 'responses-tr', 'messages', 'gemini']

/** the model the translating channel (an OpenAI-compatible type without /v1/responses) serves */
export const TRANSLATED_MODEL = 'gpt-4o-mini'

const PROMPT = 'Hello, how are you today?'

/** Path, body and headers of one request through a door. */
export function doorRequest(door: Door, key: string, stream: boolean): { path: string; body: string; headers: Record<string, string> } {
  const s = stream ? { stream: true } : {}
  const json = { 'content-type': 'application/json' }
  if (door === 'responses' || door === 'responses-tr')
    return {
      path: '/v1/responses',
      body: JSON.stringify({
        model: door === 'responses' ? 'gpt-3.5-turbo' : TRANSLATED_MODEL,
        input: PROMPT,
        max_output_tokens: 64,
        ...s,
      }),
      headers: { authorization: `Bearer ${key}`, ...json },
    }
  if (door === 'gemini')
    return {
      path: `/v1beta/models/gpt-3.5-turbo:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generationConfig: { maxOutputTokens: 64 } }),
      headers: { 'x-goog-api-key': key, ...json },
    }
  if (door === 'messages')
    return {
      path: '/v1/messages',
      body: JSON.stringify({ model: 'gpt-3.5-turbo', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }], ...s }),
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', ...json },
    }
  return {
    path: '/v1/chat/completions',
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: PROMPT }], max_tokens: 64, ...s }),
    headers: { authorization: `Bearer ${key}`, ...json },
  }
}

interface Row {
  name: string
  stream: boolean
  concurrency: number
  rps: number
  p50: number
  ttfb50: number
  cpu: number
  errors: number
  count: number
}

const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-')
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0)
/** requests per second over all the rounds' slices together */
const pooledRps = (rs: Row[]) => sum(rs.map((r) => r.count)) / sum(rs.map((r) => r.count / r.rps))
/** Tollgate CPU microseconds per request over all the rounds */
const pooledCpu = (rs: Row[]) => sum(rs.map((r) => r.cpu * r.count)) / sum(rs.map((r) => r.count))

/**
 * The doors' table: each door through Tollgate beside chat completions through Tollgate, case by
 * case, and the targets. `rows` gives every round of a case. The doors of a case took
 * turns in short slices (interleave.ts), so every door met the same conditions and the rounds'
 * slices are pooled: req/s and CPU per request are over all of them, and the ratio is the door's
 * pooled req/s over chat's (the median of per-round ratios, tried first, was itself ±10% at c1).
 * Latencies are the medians of the rounds' p50s; the TTFB added, the median of the rounds'
 * differences. The CPU ratio (chat's CPU per request over the door's) is the throughput ratio the
 * relay's own work allows, whatever else the machine runs.
 */
export function printDoors(names: string[], doors: readonly Door[], rows: (door: Door, name: string) => Row[] | undefined): void {
  const head = ['case', 'door', 'req/s', 'p50 ms', 'TTFB p50', 'ratio/chat', 'TTFB +chat', 'CPU us/req', 'CPU ratio', 'errors']
  const widths = [15, 12, 9, 8, 9, 11, 11, 11, 10, 7]
  const line = (cells: string[]) => console.log(cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' '))
  console.log('\nfront doors through Tollgate, beside chat completions through Tollgate (interleaved slices, all rounds pooled):')
  line(head)
  line(widths.map((w) => '-'.repeat(w)))
  let worstRatio = Infinity
  let worstTtfb = -Infinity
  // TTFB added is the target alone (c1); without a c1 case, the lowest concurrency run
  const low = Math.min(...names.map((n) => Number(/c(\d+)$/.exec(n)?.[1] ?? Infinity)))
  for (const name of names) {
    const chat = rows('chat', name)
    if (!chat) continue
    for (const door of doors) {
      const rs = rows(door, name)
      if (!rs) continue
      const ratio = pooledRps(rs) / pooledRps(chat)
      const ttfb = median(rs.map((r, i) => r.ttfb50 - chat[i].ttfb50))
      const cpuRatio = pooledCpu(chat) / pooledCpu(rs)
      const r = rs[0]
      if (door !== 'chat') {
        worstRatio = Math.min(worstRatio, ratio)
        if (r.stream && r.concurrency === low) worstTtfb = Math.max(worstTtfb, ttfb)
      }
      const isDoor = door !== 'chat'
      line([
        name,
        door,
        fmt(pooledRps(rs), 0),
        fmt(median(rs.map((x) => x.p50))),
        r.stream ? fmt(median(rs.map((x) => x.ttfb50))) : '',
        isDoor ? fmt(ratio) : '',
        isDoor && r.stream ? `+${fmt(ttfb)}` : '',
        fmt(pooledCpu(rs), 0),
        isDoor ? fmt(cpuRatio) : '',
        String(rs.reduce((a, x) => a + x.errors, 0)),
      ])
    }
  }
  console.log(
    `targets: every door within 15% of chat completions' req/s: worst ratio ${fmt(worstRatio)} ${worstRatio >= 0.85 ? 'met' : 'NOT met'}; ` +
      `stream TTFB added <= 1 ms (p50, c${low}): worst +${fmt(worstTtfb)} ms ${worstTtfb <= 1 ? 'met' : 'NOT met'}`,
  )
}
