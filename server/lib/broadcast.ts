import type { AppContext, ChangeKind } from '../context.ts'

const CHANNEL = 'tollgate:changes'

interface Message {
  origin: string
  kind: ChangeKind
  id?: number
  /** for kind 'options': the key that changed */
  key?: string
}

/**
 * With REDIS_URL set, changes made on one instance reach the caches of every other instance:
 * bus events and option changes are published on a Redis channel and replayed locally elsewhere.
 */
export async function startBroadcast(ctx: AppContext): Promise<void> {
  if (!ctx.config.redisUrl) return
  const { Redis } = await import('ioredis')
  const pub = new Redis(ctx.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
  const sub = new Redis(ctx.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
  await Promise.all([pub.connect(), sub.connect()])
  const origin = `${process.pid}-${Math.random().toString(36).slice(2)}`
  let replaying = false

  ctx.bus.on((kind, id) => {
    if (!replaying) void pub.publish(CHANNEL, JSON.stringify({ origin, kind, id } satisfies Message))
  })
  ctx.options.onChange((key) => {
    if (!replaying) void pub.publish(CHANNEL, JSON.stringify({ origin, kind: 'options', key } satisfies Message))
  })

  await sub.subscribe(CHANNEL)
  sub.on('message', async (_channel, raw) => {
    let msg: Message
    try {
      msg = JSON.parse(raw) as Message
    } catch {
      return
    }
    if (msg.origin === origin) return
    if (msg.kind === 'options' && msg.key) {
      const row = await ctx.db.selectFrom('options').select('value').where('key', '=', msg.key).executeTakeFirst()
      replaying = true
      try {
        if (row) ctx.options.apply(msg.key, row.value)
      } finally {
        replaying = false
      }
      return
    }
    replaying = true
    try {
      ctx.bus.emit(msg.kind, msg.id)
    } finally {
      replaying = false
    }
  })

  ctx.onClose.push(async () => {
    sub.disconnect()
    pub.disconnect()
  })
}
