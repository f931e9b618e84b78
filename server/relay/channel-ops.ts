import type { RelayEngine } from './engine.ts'
import { channelFromRow, type ChannelState } from './state.ts'
import { priceContent, priceOther, type Usage } from './pricing.ts'
import { relayQuota } from '../../domain/pricing.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'
import { splitBase } from './upstream.ts'
import { readLimited, send } from './forward.ts'
import { upstreamModelOf } from './choose.ts'
import type { RelayCall } from './adapters/index.ts'
import { channelTypeName } from '../../domain/channel-types.ts'
import { extractUsage } from './adapters/openai.ts'
import { errorParam, reason, ReasonError, REASON_MAX, withTestReason, type Reason } from '../lib/status-reason.ts'
import { upstreamSaid } from './errors.ts'

export interface Tester {
  id: number
  username: string
  group: string
}

/**
 * How a test went. Why it failed is a reason (see status-reason.ts), worded for whoever reads it:
 * the tester in the test's answer, any reader in the channel's other_info.
 */
export type TestOutcome =
  | { success: true; /** seconds */ time: number }
  | {
      success: false
      reason: Reason
      /** the channel's type has no test call (not a fault of the channel) */ untestable?: true
      time: number
    }

const running = new WeakMap<RelayEngine, Promise<void>>()

/** The model a channel test uses: the one asked for, the channel's test model, its first model. */
export function testModelOf(ch: ChannelState, asked?: string): string {
  return asked?.trim() || ch.testModel || ch.models[0] || 'gpt-3.5-turbo'
}

export async function loadChannel(engine: RelayEngine, id: number): Promise<ChannelState | null> {
  const row = await engine.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? channelFromRow(row) : null
}

/**
 * One real call through the channel. Records response_time (ms) and test_time, and a consumption
 * log for the tester (token name "model test"; logged, not charged), and a failure in other_info
 * (test_error) until a later test passes. Never disables by itself.
 */
export async function testChannel(engine: RelayEngine, ch: ChannelState, tester: Tester, model?: string): Promise<TestOutcome> {
  const m = testModelOf(ch, model)
  const r = await probe(engine, ch, m)
  const now = Math.floor(Date.now() / 1000)
  await recordTest(engine, ch.id, { response_time: Math.round(r.seconds * 1000), test_time: now }, r.ok || r.untestable ? null : r.reason)
  if (!r.ok) return { success: false, reason: r.reason, ...(r.untestable ? { untestable: true as const } : {}), time: r.seconds }
  if (engine.ctx.options.bool('LogConsumeEnabled')) {
    const price = engine.pricing.price(m, tester.group)
    engine.ledger.enqueueLog({
      user_id: tester.id,
      created_at: now,
      type: 2,
      content: `channel test: ${priceContent(price)}`,
      username: tester.username,
      token_name: 'model test',
      token_id: 0,
      model_name: m,
      quota: relayQuota(price, r.usage, engine.ctx.options.quotaPerUnit),
      prompt_tokens: r.usage.prompt_tokens,
      completion_tokens: r.usage.completion_tokens,
      use_time: Math.floor(r.seconds),
      is_stream: 0,
      channel: ch.id,
      other: priceOther(price, [ch.id]),
    })
  }
  return { success: true, time: r.seconds }
}

/** Stores a test's time and outcome: a failure stays on the channel until a later test passes. */
async function recordTest(engine: RelayEngine, id: number, times: { response_time: number; test_time: number }, error: Reason | null) {
  await engine.ctx.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('channels').select('other_info').where('id', '=', id).executeTakeFirst()
    const other_info = withTestReason(row?.other_info, error)
    await tx
      .updateTable('channels')
      .set({ ...times, other_info })
      .where('id', '=', id)
      .execute()
  })
}

/** A failure; `untestable` when the channel's type has no test call (not a fault of the channel). */
type Probe = { ok: true; seconds: number; usage: Usage } | { ok: false; seconds: number; reason: Reason; untestable?: true }

/**
 * One real, non-stream chat call of at most one completion token, sent by the relay's own forward
 * stage (the channel's adapter, model mapping and pool). Returns the seconds it took and the usage.
 */
async function probe(engine: RelayEngine, ch: ChannelState, model: string): Promise<Probe> {
  const start = performance.now()
  const secs = () => Math.round(performance.now() - start) / 1000
  const call = probeCall(ch, model)
  const sent = await send(engine.upstream, call, ch, AbortSignal.timeout(60_000))
  if (!sent.ok) {
    switch (sent.failure) {
      case 'unsupported':
        return { ok: false, seconds: 0, untestable: true, reason: reason('channel.test.unsupported', { type: typeName(ch.type) }) }
      case 'misconfigured':
        return { ok: false, seconds: secs(), reason: reason('channel.test.misconfigured', { id: ch.id, message: sent.detail }) }
      case 'unreachable':
        return { ok: false, seconds: secs(), reason: reason('channel.test.unreachable', { message: sent.detail }) }
      case 'refused':
        return {
          ok: false,
          seconds: secs(),
          reason: reason('channel.upstreamStatus', { status: sent.error.status, message: upstreamSaid(sent.error) }),
        }
    }
  }
  const text = Buffer.from(await readLimited(sent.res.body, 1024 * 1024))
  let usage: Usage | null
  try {
    usage = sent.adapter.response(call, text, String(sent.res.headers['content-type'] ?? 'application/json')).usage
  } catch (err) {
    return { ok: false, seconds: secs(), reason: reason('channel.test.unreadable', { message: errorParam(err) }) }
  }
  usage ??= extractUsage(text)
  if (!usage) return { ok: false, seconds: secs(), reason: reason('channel.test.noUsage') }
  return { ok: true, seconds: secs(), usage }
}

/** The test request: "hi", one completion token (max_completion_tokens for the o-series). */
function probeCall(ch: ChannelState, model: string): RelayCall {
  const upstreamModel = upstreamModelOf(ch, model)
  const json: Record<string, any> = { model: upstreamModel, messages: [{ role: 'user', content: 'hi' }] }
  if (/^o\d/.test(upstreamModel)) json.max_completion_tokens = 1
  else json.max_tokens = 1
  const raw = Buffer.from(JSON.stringify(json))
  return { mode: 'chat', path: '/chat/completions', raw, json, contentType: 'application/json', model, stream: false, wantUsage: false }
}

export function testAllRunning(engine: RelayEngine): Promise<void> | undefined {
  return running.get(engine)
}

/**
 * Tests every enabled and automatically disabled channel, one after another, in the background.
 * With the monitoring options on: disables (status 3) an auto_ban channel that fails or answers
 * slower than ChannelDisableThreshold seconds; re-enables an automatically disabled one that passes.
 * Returns false when a run is already going.
 */
export function startTestAll(engine: RelayEngine, tester: Tester): boolean {
  if (running.get(engine)) return false
  const run = (async () => {
    const rows = await engine.ctx.db
      .selectFrom('channels')
      .selectAll()
      .where('status', 'in', [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled])
      .orderBy('id')
      .execute()
    for (const row of rows) {
      const ch = channelFromRow(row)
      const o = engine.ctx.options
      const outcome: TestOutcome = await testChannel(engine, ch, tester).catch((err: unknown) => ({
        success: false,
        reason: reason('channel.test.crashed', { message: String(err).slice(0, REASON_MAX) }),
        time: 0,
      }))
      if (!outcome.success && outcome.untestable) continue
      const threshold = o.num('ChannelDisableThreshold', 5)
      const slow = threshold > 0 && outcome.time > threshold
      if (ch.status === CHANNEL_STATUS.enabled && (!outcome.success || slow)) {
        if (o.bool('AutomaticDisableChannelEnabled') && ch.autoBan) {
          const why = outcome.success
            ? reason('channel.disabled.tooSlow', { seconds: outcome.time, threshold })
            : reason('channel.testFailed', { reason: outcome.reason })
          await engine.monitor.disable(ch.id, why, outcome.success ? undefined : outcome.reason)
        }
      } else if (ch.status === CHANNEL_STATUS.autoDisabled && outcome.success && !slow && o.bool('AutomaticEnableChannelEnabled')) {
        await engine.monitor.enable(ch.id)
      }
    }
  })()
    .catch((err) => console.error('relay: testing all channels failed:', err))
    .finally(() => running.delete(engine))
  running.set(engine, run)
  return true
}

/** A channel type's name in both languages. */
function typeName(type: number) {
  return { en: channelTypeName(type), zh: channelTypeName(type, 'zh') }
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10)
}

async function getJson(engine: RelayEngine, ch: ChannelState, path: string): Promise<Record<string, any>> {
  const { origin, prefix } = splitBase(ch.baseUrl || 'https://api.openai.com')
  const res = await engine.upstream.agent.request({
    origin,
    path: prefix + path,
    method: 'GET',
    headers: { authorization: `Bearer ${ch.key}` },
    signal: AbortSignal.timeout(15_000),
  })
  const text = await res.body.text()
  if (res.statusCode !== 200)
    throw new ReasonError(reason('channel.upstreamStatus', { status: res.statusCode, message: text.slice(0, 200) }))
  return JSON.parse(text) as Record<string, any>
}

/**
 * The remaining balance in USD from the OpenAI-style billing endpoints (OpenAI and custom
 * channels): hard limit minus this period's usage. Stored on the channel.
 */
export async function updateBalance(
  engine: RelayEngine,
  ch: ChannelState,
): Promise<{ success: true; balance: number } | { success: false; reason: Reason }> {
  if (ch.type !== 1 && ch.type !== 8) return { success: false, reason: reason('channel.balance.unsupported', { type: typeName(ch.type) }) }
  try {
    const sub = await getJson(engine, ch, '/v1/dashboard/billing/subscription')
    const now = new Date()
    const start = sub.has_payment_method
      ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
      : new Date(now.getTime() - 100 * 86_400_000)
    const end = new Date(now.getTime() + 86_400_000)
    const usage = await getJson(engine, ch, `/v1/dashboard/billing/usage?start_date=${ymd(start)}&end_date=${ymd(end)}`)
    const balance = Math.round((Number(sub.hard_limit_usd) - Number(usage.total_usage) / 100) * 1e6) / 1e6
    if (!Number.isFinite(balance)) return { success: false, reason: reason('channel.balance.noTotals') }
    await engine.ctx.db
      .updateTable('channels')
      .set({ balance, balance_updated_time: Math.floor(Date.now() / 1000) })
      .where('id', '=', ch.id)
      .execute()
    return { success: true, balance }
  } catch (err) {
    return { success: false, reason: reason('channel.balance.queryFailed', { message: errorParam(err) }) }
  }
}

/** Every enabled OpenAI or custom channel; those with no balance left are disabled when allowed. */
export async function updateAllBalances(engine: RelayEngine): Promise<void> {
  const rows = await engine.ctx.db
    .selectFrom('channels')
    .selectAll()
    .where('status', '=', CHANNEL_STATUS.enabled)
    .where('type', 'in', [1, 8])
    .orderBy('id')
    .execute()
  const queue = rows.map(channelFromRow)
  const worker = async () => {
    for (let ch = queue.shift(); ch; ch = queue.shift()) {
      const r = await updateBalance(engine, ch)
      if (r.success && r.balance <= 0 && engine.ctx.options.bool('AutomaticDisableChannelEnabled') && ch.autoBan) {
        await engine.monitor.disable(ch.id, reason('channel.disabled.noBalance'))
      }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
}
