import type { Context } from 'hono'
import type { AppContext } from '../context.ts'
import type { Env } from '../http.ts'
import { RelayError } from './errors.ts'
import { errorFor } from './doors/index.ts'
import { Ledger } from './ledger.ts'
import { Pricing } from './pricing.ts'
import { RelayState } from './state.ts'
import { Tokenizer } from './tokenizer.ts'
import { Upstream } from './upstream.ts'
import { ChannelMonitor } from './monitor.ts'
import { Flights } from './in-flight.ts'
import { relay } from './relay.ts'
import type { Caller } from './authenticate.ts'
import { adapterFor, type Mode } from './adapters/index.ts'

/**
 * The relay of one server: owns its state (the in-memory caches of users, tokens and channels, the
 * ledger, prices, the tokenizer, the upstream pool, the channel monitor, the requests in flight)
 * and answers each request with the stages of relay() (see relay.ts).
 */
export class RelayEngine {
  ctx: AppContext
  state: RelayState
  ledger: Ledger
  pricing: Pricing
  tokenizer = new Tokenizer()
  upstream: Upstream
  monitor: ChannelMonitor
  /** the requests between their reservation and their end */
  flights: Flights
  random: () => number = Math.random
  ready = false
  private readyPromise: Promise<void>
  /** background work to wait for before writing the last batch: counted settles, channel disables */
  private settling = new Set<Promise<unknown>>()

  constructor(ctx: AppContext) {
    this.ctx = ctx
    this.state = new RelayState(ctx)
    this.upstream = new Upstream(ctx.config.relayTimeoutSeconds)
    this.ledger = new Ledger(ctx, this.state)
    this.pricing = new Pricing(ctx.options)
    this.monitor = new ChannelMonitor(ctx, this.state)
    this.flights = new Flights(this.ledger, ctx.options, (p) => this.track(p))
    this.readyPromise = Promise.all([this.ledger.recover(), this.loadAll()]).then(() => {
      this.ready = true
    })
    this.readyPromise.catch((err) => console.error('relay: initial load failed:', err))
  }

  /** Requests holding a reservation right now. */
  get inflight(): number {
    return this.flights.open
  }

  async loadAll(): Promise<void> {
    await this.ledger.locked(async () => {
      await this.state.loadUsers()
      await this.state.loadTokens()
    })
    await this.state.loadChannels()
  }

  whenReady(): Promise<void> {
    return this.readyPromise
  }

  /** Waits for settles in flight (counting) and writes everything pending. */
  async idle(): Promise<void> {
    while (this.settling.size) await Promise.allSettled([...this.settling])
    // a flush queues behind one the writer may be committing right now, so this waits for it too
    await this.ledger.flush()
    for (let i = 0; i < 50 && this.ledger.hasPending(); i++) {
      await new Promise((r) => setTimeout(r, 10))
      await this.ledger.flush()
    }
  }

  /** Keeps `p` in the background work idle() and close() wait for. */
  track(p: Promise<unknown>): void {
    this.settling.add(p)
    p.finally(() => this.settling.delete(p)).catch(() => undefined)
  }

  /** Relays one request; every failure is answered in the wire format of the endpoint. */
  async handle(c: Context<Env>, mode: Mode, path: string): Promise<Response> {
    const requestId = c.get('requestId')
    try {
      return await relay(this, c, mode, path)
    } catch (err) {
      if (err instanceof RelayError) return errorFor(mode, err, requestId)
      console.error(`[${requestId}] relay failure:`, err)
      return errorFor(mode, new RelayError(500, 'the relay failed to process this request', 'relay_error'), requestId)
    }
  }

  // ---- models (/v1/models) -------------------------------------------------------------------

  modelsFor(caller: Caller): string[] {
    if (caller.token.modelLimits) return [...caller.token.modelLimits].sort()
    return this.state.modelsOf(caller.group)
  }

  ownerOf(model: string): string {
    for (const ch of this.state.channels.values()) {
      if (ch.status === 1 && ch.models.includes(model)) return adapterFor(ch.type)?.owner ?? 'custom'
    }
    return 'custom'
  }

  async close(): Promise<void> {
    // the first load (and journal replay) reads through connections the server closes after this
    await this.readyPromise.catch(() => undefined)
    const until = Date.now() + 10_000
    while ((this.inflight > 0 || this.settling.size > 0) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20))
    }
    await this.idle()
    await this.ledger.close()
    await this.tokenizer.close()
    await this.upstream.close().catch(() => undefined)
  }
}
