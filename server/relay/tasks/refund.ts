/** Gives a failed task's charge back, exactly once, and tells the relay's caches at once. */
import type { AppContext } from '../../context.ts'
import { findUser } from '../../db/users.ts'
import { refundTask, type TaskRow } from '../../db/tasks.ts'

/** True when this call refunded the task (false: nothing was charged, or another call already did). */
export async function refund(ctx: AppContext, task: TaskRow): Promise<boolean> {
  if (task.quota <= 0 || task.refunded) return false
  const user = await findUser(ctx.db, task.user_id)
  const done = await refundTask(ctx.db, task, {
    userId: task.user_id,
    username: user?.username ?? '',
    at: Math.floor(Date.now() / 1000),
    quota: task.quota,
    detail: { kind: 'task.refunded', quota: task.quota, platform: task.platform, task_id: task.task_id },
  })
  if (done) {
    ctx.bus.emit('users', task.user_id)
    if (task.token_id > 0) ctx.bus.emit('tokens', task.token_id)
  }
  return done
}
