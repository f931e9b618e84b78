/**
 * The commands element tests send with executeServerCommand (see helpers.ts `serverCommand`): they
 * arrange the real server's state (options, rows written straight into its database, mails read
 * back) where the console offers no way. Two plugins: the general ones and those of the
 * administrator lists (every answer of these is non-null).
 */
import { issueVerificationToken } from '../../server/lib/verification.ts'
import { browserModelsAuth, config, defaultOptions, gateway, mails, outsideBase, upstreamBase } from './test-server.ts'
import { refillModelTotals, refillRollups } from '../../server/db/quota-data.ts'

/** The general commands: options, rows written straight into the real database, mails read back. */
const general: Record<string, (payload: any) => Promise<unknown>> = {
  'tg-options': async (payload) => {
    for (const [key, value] of Object.entries(payload as Record<string, string>)) await gateway.ctx.options.set(key, String(value))
    return true
  },
  'tg-reset-options': async () => {
    for (const { key, value } of gateway.ctx.options.all())
      if (defaultOptions.has(key) && defaultOptions.get(key) !== value) await gateway.ctx.options.set(key, defaultOptions.get(key)!)
    config.criticalRateLimit = 1_000_000
    return true
  },
  'tg-option': async (payload) => {
    // settings tests: what the server stored, secrets included (GET /api/option/ hides them)
    return gateway.ctx.options.get(payload.key)
  },
  'tg-quota-data': async (payload) => {
    // dashboard tests: hourly usage buckets (quota_data) replaced as a whole; user ids from the usernames
    await gateway.ctx.db.deleteFrom('quota_data').execute()
    const rows = payload.rows as Array<{
      username: string
      model_name: string
      created_at: number
      count: number
      quota: number
      token_used: number
    }>
    for (const r of rows) {
      const user = await gateway.ctx.db.selectFrom('users').select('id').where('username', '=', r.username).executeTakeFirst()
      await gateway.ctx.db
        .insertInto('quota_data')
        .values({ ...r, user_id: user?.id ?? 0 })
        .execute()
    }
    await refillModelTotals(gateway.ctx.db)
    await refillRollups(gateway.ctx.db)
    return true
  },
  'tg-quota-dims': async (payload) => {
    // breakdown tests: token and channel buckets (quota_dims) replaced as a whole; a token row is
    // made for each `token` name of its `owner` (a username); channel rows name `channel` (an id)
    await gateway.ctx.db.deleteFrom('quota_dims').execute()
    const rows = payload.rows as Array<{
      owner?: string
      token?: string
      channel?: number
      created_at: number
      count: number
      quota: number
    }>
    const ids: Record<string, number> = {}
    for (const { owner, token, channel, ...figures } of rows) {
      let key = channel ?? 0
      let userId = 0
      if (token && owner) {
        const user = await gateway.ctx.db.selectFrom('users').select('id').where('username', '=', owner).executeTakeFirstOrThrow()
        userId = user.id
        const name = `${owner}/${token}`
        ids[name] ??= (
          await gateway.ctx.db
            .insertInto('tokens')
            .values({ user_id: userId, key: `dims${Math.random().toString(36).slice(2)}`.padEnd(48, '0'), name: token, group: '' })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
        key = ids[name]
      }
      const dim = token ? 'token' : 'channel'
      await gateway.ctx.db
        .insertInto('quota_dims')
        .values({ dim, key_id: key, user_id: userId, token_used: 0, ...figures })
        .execute()
    }
    await refillRollups(gateway.ctx.db)
    return ids
  },
  'tg-critical-limit': async (payload) => {
    config.criticalRateLimit = Number(payload.limit)
    return true
  },
  // logs, settings and task-list tests: rows written straight into the real database
  'tg-h3-user': async (payload) => {
    // sets columns of a user (role, quota, invite earnings, bindings) by username, or of the
    // users matching `where` (one column = value)
    const [column, value] = payload.where ? Object.entries(payload.where)[0]! : ['username', payload.username]
    await gateway.ctx.db
      .updateTable('users')
      .set(payload.set)
      .where(column as 'username', '=', value as string)
      .execute()
    gateway.ctx.bus.emit('users')
    return true
  },
  'tg-h3-logs': async (payload) => {
    // inserts log rows; user_id and username come from `owner` (a username)
    const rows = payload.rows as Array<Record<string, unknown> & { owner: string }>
    for (const { owner, ...row } of rows) {
      const user = await gateway.ctx.db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('username', '=', owner)
        .executeTakeFirstOrThrow()
      await gateway.ctx.db
        .insertInto('logs')
        .values({ user_id: user.id, username: user.username, ...row } as never)
        .execute()
    }
    return rows.length
  },
  'tg-h3-logs-many': async (payload) => {
    // many consumption rows for `owner` at once (the smooth-scrolling test): one a second back from
    // `until`, in batches, details of varying length
    const user = await gateway.ctx.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', '=', payload.owner)
      .executeTakeFirstOrThrow()
    const count = Number(payload.count)
    const until = Number(payload.until)
    for (let i = 0; i < count; i += 500) {
      const values = Array.from({ length: Math.min(500, count - i) }, (_, k) => {
        const n = i + k
        return {
          user_id: user.id,
          username: user.username,
          created_at: until - (count - n), // later rows are newer, as their ids are
          type: 2,
          token_name: `tok-${n % 7}`,
          model_name: ['gpt-4o', 'claude-3-5-sonnet-20241022', 'deepseek-chat'][n % 3]!,
          quota: 100 + n,
          prompt_tokens: n % 500,
          completion_tokens: n % 300,
          use_time: n % 9,
          is_stream: n % 2,
          channel: 1 + (n % 4),
          content: n % 5 === 0 ? `row ${n}: ${'a long detail that wraps when unfolded, '.repeat(3)}` : `row ${n}`,
          other: '',
        }
      })
      await gateway.ctx.db.insertInto('logs').values(values).execute()
    }
    return count
  },
  'tg-h3-logs-before': async (payload) => {
    // removes the logs older than `before` (seconds), so a cleaning test counts only its own rows
    await gateway.ctx.db.deleteFrom('logs').where('created_at', '<', Number(payload.before)).execute()
    return true
  },
  'tg-h3-tasks': async (payload) => {
    // inserts task rows; user_id comes from `owner` (a username)
    const rows = payload.rows as Array<Record<string, unknown> & { owner: string }>
    for (const { owner, ...row } of rows) {
      const user = await gateway.ctx.db.selectFrom('users').select('id').where('username', '=', owner).executeTakeFirstOrThrow()
      await gateway.ctx.db
        .insertInto('tasks')
        .values({ channel_id: 0, user_id: user.id, ...row } as never)
        .execute()
    }
    return rows.length
  },
  'tg-h3-models': async (payload) => {
    // the models of a group (ability rows of a stand-in channel), for GET /api/user/models
    const channelId = 990_000 + Number(payload.slot ?? 0)
    await gateway.ctx.db.deleteFrom('abilities').where('channel_id', '=', channelId).execute()
    for (const model of payload.models as string[]) {
      await gateway.ctx.db
        .insertInto('abilities')
        .values({ group: payload.group, model, channel_id: channelId, enabled: 1, priority: 0, weight: 0 })
        .execute()
    }
    return true
  },
  'tg-user': async (payload) => {
    const row = await gateway.ctx.db.selectFrom('users').selectAll().where('username', '=', payload.username).executeTakeFirst()
    if (!row) return null
    const { password: _password, ...rest } = row
    return rest
  },
  'tg-set-email': async (payload) => {
    await gateway.ctx.db.updateTable('users').set({ email: payload.email }).where('username', '=', payload.username).execute()
    return true
  },
  'tg-outside-base': async () => {
    return outsideBase
  },
  'tg-reset-token': async (payload) => {
    return issueVerificationToken(gateway.ctx.db, 'reset', payload.email)
  },
  'tg-last-mail': async (payload) => {
    const mail = [...mails].reverse().find((m) => m.to.includes(payload.to))
    return mail ? mail.text : null
  },
  'tg-abilities': async (payload) => {
    // pricing and model-limit tests: ability rows of a stand-in channel id, replaced as a whole
    const channelId = Number(payload.channelId)
    await gateway.ctx.db.deleteFrom('abilities').where('channel_id', '=', channelId).execute()
    const rows = (payload.rows as Array<{ group: string; model: string; enabled?: boolean }>).map((r) => ({
      group: r.group,
      model: r.model,
      channel_id: channelId,
      enabled: r.enabled === false ? 0 : 1,
      priority: 0,
      weight: 0,
    }))
    if (rows.length) await gateway.ctx.db.insertInto('abilities').values(rows).execute()
    gateway.ctx.bus.emit('channels')
    return true
  },
  'tg-set-group': async (payload) => {
    await gateway.ctx.db.updateTable('users').set({ group: payload.group }).where('username', '=', payload.username).execute()
    gateway.ctx.bus.emit('users')
    return true
  },
}

/** Commands the tests send with executeServerCommand: arrange the real server's state. */
export const serverCommands = {
  name: 'tollgate-server-commands',
  executeCommand: ({ command, payload }: { command: string; payload?: any }) => general[command]?.(payload),
}

/** Commands of the administrator list tests (their own plugin: every answer is non-null). */
const admin: Record<string, (payload: any) => Promise<unknown>> = {
  'tg-admin-upstream': async () => {
    return upstreamBase
  },
  'tg-admin-models-auth': async () => {
    // the Authorization header of the last model list a browser asked the upstream for ('' none)
    return browserModelsAuth ?? ''
  },
  'tg-admin-channel-set': async (payload) => {
    // measured columns the console only shows (response_time, balance, status …)
    await gateway.ctx.db.updateTable('channels').set(payload.set).where('id', '=', Number(payload.id)).execute()
    gateway.ctx.bus.emit('channels', Number(payload.id))
    return true
  },
  'tg-admin-user-set': async (payload) => {
    // columns of a user the console cannot set (a status the server never gives, for one)
    await gateway.ctx.db.updateTable('users').set(payload.set).where('username', '=', payload.username).execute()
    gateway.ctx.bus.emit('users')
    return true
  },
  'tg-admin-loopback-channels': async () => {
    // before "test all" and "update all balances": no channel may send the server off the machine
    await gateway.ctx.db
      .updateTable('channels')
      .set({ base_url: upstreamBase })
      .where('base_url', 'not like', 'http://127.0.0.1:%')
      .execute()
    gateway.ctx.bus.emit('channels')
    return true
  },
}

export const adminFixtures = {
  name: 'tollgate-admin-fixtures',
  executeCommand: ({ command, payload }: { command: string; payload?: any }) => admin[command]?.(payload),
}
