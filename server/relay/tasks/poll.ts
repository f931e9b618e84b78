/**
 * The poller: every TaskPollInterval seconds each instance claims the unfinished tasks whose lease
 * has run out (a conditional update, so two instances never hold the same task), asks each
 * channel about its tasks in one call, writes what it learned, fails tasks older than TaskTimeout,
 * and refunds failed ones exactly once. A poll that fails leaves its tasks leased for longer each
 * time (back-off), so a channel that is down is not hammered.
 */
import type { AppContext } from '../../context.ts'
import type { RelayEngine } from '../engine.ts'
import { claimDueTasks, delayTasks, updateTask, type TaskRow } from '../../db/tasks.ts'
import { reachOf, type TaskPoll, type TaskUpdate } from './types.ts'
import { refund } from './refund.ts'

const BATCH = 500
const POLL_TIMEOUT_MS = 15_000
/** a claimed task stays with its instance this long at most (a crashed instance's tasks come back) */
const LEASE_MS = 120_000

export const TIMEOUT_REASON = 'the upstream did not finish the task in time'

export class TaskPoller {
  private engine: RelayEngine
  private polls: readonly TaskPoll[]
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private stopped = false
  private offOptions: (() => void) | null = null

  constructor(engine: RelayEngine, polls: readonly TaskPoll[]) {
    this.engine = engine
    this.polls = polls
  }

  private get ctx(): AppContext {
    return this.engine.ctx
  }

  private get intervalMs(): number {
    return Math.max(10, this.ctx.options.num('TaskPollInterval', 15) * 1000)
  }

  start(): void {
    this.offOptions ??= this.ctx.options.onChange((key) => {
      // a new interval applies from now, not after the round already waiting
      if (key === 'TaskPollInterval' && this.timer) {
        clearTimeout(this.timer)
        this.timer = null
        this.start()
      }
    })
    if (this.timer || this.stopped) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.round().finally(() => this.start())
    }, this.intervalMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.offOptions?.()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  /** One round (the tests call it directly); rounds never overlap on one instance. */
  round(): Promise<void> {
    this.running ??= this.roundNow()
      .catch((err) => console.error('tasks: poll round failed:', err))
      .finally(() => {
        this.running = null
      })
    return this.running
  }

  private async roundNow(): Promise<void> {
    if (!this.engine.ready) await this.engine.whenReady()
    const now = Date.now()
    const tasks = await claimDueTasks(this.ctx.db, now, now + LEASE_MS, BATCH)
    const byChannel = new Map<number, TaskRow[]>()
    const timeoutMs = Math.max(60, this.ctx.options.num('TaskTimeout', 3600)) * 1000
    for (const t of tasks) {
      if (!t.task_id) await this.apply(t, failure(t, 'the upstream gave no task id'))
      else if (t.submit_time > 0 && now - t.submit_time > timeoutMs) await this.apply(t, failure(t, TIMEOUT_REASON))
      else byChannel.set(t.channel_id, [...(byChannel.get(t.channel_id) ?? []), t])
    }
    await Promise.all([...byChannel].map(([id, list]) => this.pollChannel(id, list)))
  }

  private async pollChannel(channelId: number, tasks: TaskRow[]): Promise<void> {
    const ch = this.engine.state.channels.get(channelId)
    const poll = ch && this.polls.find((p) => p.channelTypes.includes(ch.type))
    if (!ch || !poll) {
      for (const t of tasks) await this.apply(t, failure(t, `channel ${channelId} no longer exists or cannot be polled`))
      return
    }
    let updates: TaskUpdate[]
    try {
      updates = await poll.poll(ch, reachOf(ch, this.ctx.options), tasks, AbortSignal.timeout(POLL_TIMEOUT_MS))
    } catch (err) {
      const errors = Math.min(6, Math.max(...tasks.map((t) => t.poll_errors)))
      await delayTasks(
        this.ctx.db,
        tasks.map((t) => t.id),
        Date.now() + this.intervalMs * 2 ** errors,
      )
      if (errors === 0) console.error(`tasks: polling channel ${channelId} failed:`, (err as Error).message)
      return
    }
    const byId = new Map(updates.map((u) => [u.taskId, u]))
    for (const t of tasks) {
      const u = byId.get(t.task_id)
      if (u) await this.apply(t, u)
      else await updateTask(this.ctx.db, t.id, {}, Date.now() + this.intervalMs)
    }
  }

  /** Writes an update; a finished task gets its finish time and 100%, a failed one its refund. */
  async apply(t: TaskRow, u: TaskUpdate): Promise<void> {
    const changes = { ...u.changes }
    if (u.phase !== 'running') {
      changes.progress = '100%'
      changes.finish_time = Number(changes.finish_time) || Date.now()
      changes.start_time = Number(changes.start_time) || t.start_time || t.submit_time
    } else if (!t.start_time && !changes.start_time) changes.start_time = Date.now()
    // the refund first: if the instance stops in between, the task is failed again and refund() finds it done
    if (u.phase === 'failure') await refund(this.ctx, t)
    await updateTask(this.ctx.db, t.id, changes, Date.now() + this.intervalMs)
  }
}

function failure(t: TaskRow, reason: string): TaskUpdate {
  return { taskId: t.task_id, phase: 'failure', changes: { status: 'FAILURE', fail_reason: reason } }
}
