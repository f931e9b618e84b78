import type { AppContext } from '../context.ts'
import { upstreamSaid, type UpstreamError } from './errors.ts'
import type { ChannelState, RelayState } from './state.ts'
import { CHANNEL_STATUS } from '../../domain/statuses.ts'
import { CHANNEL_TYPE } from '../../domain/channel-types.ts'
import { disabledInfo, reason, withTestReason, type Reason } from '../lib/status-reason.ts'

const DISABLE_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active', 'insufficient_quota'])
const DISABLE_TYPES = new Set(['insufficient_quota', 'insufficient_user_quota', 'authentication_error', 'permission_error', 'forbidden'])
const DISABLE_PREFIXES = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
]

/**
 * Whether an upstream failure means the channel itself is unusable (bad key, no quota left at
 * the provider), as opposed to a failure of this one request.
 */
export function shouldDisable(ch: ChannelState, err: UpstreamError): boolean {
  if (err.status === 401) return true
  if (err.status === 403 && ch.type === CHANNEL_TYPE.gemini) return true
  if (typeof err.code === 'string' && DISABLE_CODES.has(err.code)) return true
  if (DISABLE_TYPES.has(err.type)) return true
  if (DISABLE_PREFIXES.some((p) => err.message.startsWith(p))) return true
  return /\b(invalid|incorrect) (x-)?api[ _-]?key\b/i.test(err.message)
}

/** Automatic disabling and enabling of channels (status 3), written off the request path. */
export class ChannelMonitor {
  private ctx: AppContext
  private state: RelayState

  constructor(ctx: AppContext, state: RelayState) {
    this.ctx = ctx
    this.state = state
  }

  /** Auto-disables after a failed relay call when the options and the channel allow it. */
  consider(ch: ChannelState, err: UpstreamError): Promise<boolean> | null {
    if (!this.ctx.options.bool('AutomaticDisableChannelEnabled') || !ch.autoBan) return null
    if (!shouldDisable(ch, err)) return null
    return this.disable(ch.id, reason('channel.disabled.upstreamError', { status: err.status, message: upstreamSaid(err) }))
  }

  /**
   * Sets status 3 (automatically disabled) with the reason (as data, worded for each reader: see
   * status-reason.ts); at once in memory. A failed channel test that led to it stays recorded as
   * the channel's last test (testError, also as data).
   */
  async disable(id: number, why: Reason, testError?: Reason): Promise<boolean> {
    this.state.setChannelStatus(id, CHANNEL_STATUS.autoDisabled)
    try {
      const disabled = disabledInfo(why, Math.floor(Date.now() / 1000))
      const info = testError === undefined ? disabled : withTestReason(disabled, testError)
      const r = await this.ctx.db
        .updateTable('channels')
        .set({ status: CHANNEL_STATUS.autoDisabled, other_info: info })
        .where('id', '=', id)
        .where('status', '=', CHANNEL_STATUS.enabled)
        .executeTakeFirst()
      const changed = Number(r.numUpdatedRows) === 1
      if (changed) this.ctx.bus.emit('channels', id)
      return changed
    } catch (err) {
      console.error(`relay: could not disable channel ${id}:`, err)
      return false
    }
  }

  /** Re-enables a channel this monitor disabled (status 3 only; a manual disable stays). */
  async enable(id: number): Promise<boolean> {
    const r = await this.ctx.db
      .updateTable('channels')
      .set({ status: CHANNEL_STATUS.enabled, other_info: '' })
      .where('id', '=', id)
      .where('status', '=', CHANNEL_STATUS.autoDisabled)
      .executeTakeFirst()
    const changed = Number(r.numUpdatedRows) === 1
    if (changed) {
      this.state.setChannelStatus(id, CHANNEL_STATUS.enabled)
      this.ctx.bus.emit('channels', id)
    }
    return changed
  }
}
