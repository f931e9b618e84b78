import type { OptionStore } from '../options.ts'
import type { Ledger, Reservation } from './ledger.ts'
import type { Price, Usage } from './pricing.ts'
import type { ChannelState } from './state.ts'
import type { RelayCall } from './adapters/index.ts'
import type { Caller } from './authenticate.ts'
import { usageOf } from './adapters/types.ts'
import { charge, type ChargeNote } from './settle.ts'

/** What a request carries from its reservation to its end. */
export interface FlightStart {
  caller: Caller
  call: RelayCall
  price: Price
  hold: Reservation
  /** performance.now() when the request arrived */
  t0: number
}

type End = (how: 'settled' | 'released') => void

/**
 * One relayed request between its reservation and its end. It owns the hold and its place in the
 * in-flight count, and ends exactly once, whichever way the request goes: `settle(usage)` charges
 * the real cost, `settleCounted(counting)` charges it once the usage is counted, `release()` gives
 * the hold back. The first of them wins; the others are no-ops, so any exit path may call
 * `release()` without checking what happened before.
 */
export class InFlight implements FlightStart {
  readonly caller: Caller
  readonly call: RelayCall
  readonly price: Price
  readonly hold: Reservation
  readonly t0: number
  /** channels tried, in order */
  readonly tried: number[] = []
  /** the channel that answered, once one has */
  channel: ChannelState | null = null
  /** the model name the channel was asked for (after its model mapping) */
  upstreamModel: string
  private ending = false
  private readonly flights: Flights
  private readonly end: End

  constructor(start: FlightStart, flights: Flights, end: End) {
    this.caller = start.caller
    this.call = start.call
    this.price = start.price
    this.hold = start.hold
    this.t0 = start.t0
    this.upstreamModel = start.call.model
    this.flights = flights
    this.end = end
  }

  /** Whether an end has been chosen (settled, being counted, or released). */
  get ended(): boolean {
    return this.ending
  }

  /** Charges `usage` at the request's price, writes its log row, and ends the request. */
  settle(usage: Usage, note?: ChargeNote): void {
    if (this.ending) return
    this.ending = true
    try {
      charge(this.flights.ledger, this.flights.options.quotaPerUnit, this, usage, note)
    } finally {
      this.end('settled')
    }
  }

  /**
   * Ends the request once `counting` gives its usage (a failed count charges no tokens). The
   * settle is tracked, so the engine's idle() and close() wait for it; the promise returned
   * resolves once the charge is journalled, which is when the answer may complete.
   */
  settleCounted(counting: Promise<Usage>, note?: ChargeNote): Promise<void> {
    if (this.ending) return Promise.resolve()
    this.ending = true
    const p = counting
      .catch(() => usageOf(0, 0))
      .then((u) => charge(this.flights.ledger, this.flights.options.quotaPerUnit, this, u, note))
      .finally(() => this.end('settled'))
    this.flights.track(p)
    return p.catch(() => undefined)
  }

  /** Gives the hold back without charging, and ends the request (no-op once an end was chosen). */
  release(): void {
    if (this.ending) return
    this.ending = true
    try {
      this.flights.ledger.release(this.hold)
    } finally {
      this.end('released')
    }
  }
}

/**
 * The requests in flight on one relay: the only place the in-flight count changes. Counts how
 * many ended by a settle and by a release (for tests and diagnostics).
 */
export class Flights {
  readonly ledger: Ledger
  readonly options: OptionStore
  readonly track: (p: Promise<unknown>) => void
  #open = 0
  #settled = 0
  #released = 0

  constructor(ledger: Ledger, options: OptionStore, track: (p: Promise<unknown>) => void) {
    this.ledger = ledger
    this.options = options
    this.track = track
  }

  /** Requests holding a reservation right now. */
  get open(): number {
    return this.#open
  }
  get settled(): number {
    return this.#settled
  }
  get released(): number {
    return this.#released
  }

  /** Starts a request that holds `start.hold`; it must end through the returned object. */
  begin(start: FlightStart): InFlight {
    this.#open++
    return new InFlight(start, this, this.#end)
  }

  #end: End = (how) => {
    this.#open--
    if (how === 'settled') this.#settled++
    else this.#released++
  }
}
