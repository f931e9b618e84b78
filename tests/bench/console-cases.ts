/**
 * The console calls `npm run bench:console` times: every list, search, stat, dashboard and
 * breakdown call, with the filters people use (first page, late page, one user, one model prefix,
 * one token, one channel, 24 hours, 30 days, all time), as the console's elements send them.
 */
import type { SeedUser } from '../../scripts/seed-data.ts'

export type Who = 'root' | 'heavy' | 'light'

export interface Case {
  who: Who
  path: string
  label: string
}

export interface CaseData {
  heavy: SeedUser
  light: SeedUser
  /** unix seconds */
  now: number
}

const DAY = 86400

/** The time ranges the calls ask, as query strings. */
function ranges(now: number) {
  return {
    day: `start_timestamp=${now - DAY}&end_timestamp=${now + 3600}`,
    month: `start_timestamp=${now - 30 * DAY}&end_timestamp=${now + 3600}`,
    all: `start_timestamp=1&end_timestamp=${now + 3600}`,
    old: `start_timestamp=${now - 29 * DAY}&end_timestamp=${now - 28 * DAY}`,
    dayMs: `start_timestamp=${(now - DAY) * 1000}&end_timestamp=${(now + 3600) * 1000}`,
  }
}

type Add = (who: Who, path: string, label: string) => void

/** The usage log's lists and statistics, an administrator's and a user's own. */
function logCases({ heavy, light, now }: CaseData, add: Add) {
  const { day, month, all, old } = ranges(now)
  const token = encodeURIComponent(heavy.tokens[0]?.[1] ?? '')
  const lightToken = encodeURIComponent(light.tokens[0]?.[1] ?? '')
  const logFilters: Array<[string, string]> = [
    ['', 'first page'],
    [day, '24 h'],
    [month, '30 days'],
    [all, 'all time'],
    [old, 'one day a month ago'],
    [`username=${heavy.username}`, 'heavy user'],
    [`username=${light.username}&${all}`, 'light user, all time'],
    [`username=${heavy.username}&${day}`, 'heavy user, 24 h'],
    [`model_name=gpt-4o&${all}`, 'model prefix gpt-4o, all time'],
    [`model_name=o1-mini&${all}`, 'rare model, all time'],
    [`model_name=gpt-4o&${day}`, 'model prefix gpt-4o, 24 h'],
    [`token_name=${token}&${all}`, 'heavy token, all time'],
    [`token_name=${lightToken}&${all}`, 'light token, all time'],
    [`channel=1&${all}`, 'busiest channel, all time'],
    [`channel=1999&${month}`, 'quiet channel, 30 days'],
  ]
  for (const [q, label] of logFilters) add('root', `/api/log/?p=0&${q}`, `log list, ${label}`)
  add('root', '/api/log/?p=500&page_size=100', 'log list, page 500 of 100')
  add('root', `/api/log/?p=200&page_size=50&${month}`, 'log list, 30 days, page 200 of 50')
  add('root', `/api/log/?p=20&username=${heavy.username}`, 'log list, heavy user, page 20')
  for (const [q, label] of logFilters.slice(1)) add('root', `/api/log/stat?${q}`, `log stat, ${label}`)
  const selfFilters: Array<[Who, string, string]> = [
    ['heavy', '', 'heavy user, first page'],
    ['heavy', day, 'heavy user, 24 h'],
    ['heavy', old, 'heavy user, one day a month ago'],
    ['heavy', `model_name=o1&${all}`, 'heavy user, model o1*, all time'],
    ['heavy', `token_name=${token}&${month}`, 'heavy user, own token, 30 days'],
    ['light', all, 'light user, all time'],
  ]
  for (const [who, q, label] of selfFilters) add(who, `/api/log/self/?p=0&${q}`, `self log list, ${label}`)
  add('heavy', '/api/log/self/?p=100', 'self log list, heavy user, page 100')
  for (const [who, q, label] of selfFilters.slice(1)) add(who, `/api/log/self/stat?${q}`, `self log stat, ${label}`)
  add('heavy', `/api/log/self/stat?${all}`, 'self log stat, heavy user, all time')
}

/** The data dashboard and its breakdowns. */
function dataCases({ heavy, now }: CaseData, add: Add) {
  add('root', `/api/data/?start_timestamp=${now - DAY}&end_timestamp=${now}`, 'dashboard, everyone, 24 h')
  // the month first: its first run reads every day from the database (the 7 days then find theirs kept)
  add('root', `/api/data/?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`, 'dashboard, everyone, 30 days')
  add('root', `/api/data/?start_timestamp=${now - 7 * DAY}&end_timestamp=${now}`, 'dashboard, everyone, 7 days')
  add(
    'root',
    `/api/data/?username=${heavy.username}&start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`,
    'dashboard, heavy user, 30 days',
  )
  add('heavy', `/api/data/self?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`, 'dashboard, own, heavy user, 30 days')
  for (const by of ['model', 'user', 'token', 'channel']) {
    add(
      'root',
      `/api/data/breakdown?by=${by}&granularity=hour&start_timestamp=${now - DAY}&end_timestamp=${now}`,
      `breakdown by ${by}, hourly, 24 h`,
    )
    add(
      'root',
      `/api/data/breakdown?by=${by}&granularity=day&start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`,
      `breakdown by ${by}, daily, 30 days`,
    )
    add(
      'root',
      `/api/data/breakdown?by=${by}&granularity=week&start_timestamp=${now - 90 * DAY}&end_timestamp=${now}`,
      `breakdown by ${by}, weekly, 90 days`,
    )
  }
  add(
    'heavy',
    `/api/data/self/breakdown?by=token&granularity=day&start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`,
    'own breakdown by token, daily, 30 days',
  )
  add(
    'heavy',
    `/api/data/self/breakdown?by=model&granularity=week&start_timestamp=${now - 90 * DAY}&end_timestamp=${now}`,
    'own breakdown by model, weekly, 90 days',
  )
}

/** The task lists and the other admin lists and searches. */
function listCases({ light, now }: CaseData, add: Add) {
  const { dayMs } = ranges(now)
  add('root', '/api/mj/?p=0', 'Midjourney tasks, first page')
  add('root', '/api/mj/?p=300', 'Midjourney tasks, page 300')
  add('root', `/api/mj/?p=0&${dayMs}`, 'Midjourney tasks, 24 h (ms)')
  add('root', '/api/suno/?p=0', 'Suno tasks, first page')
  add('root', '/api/kling/?p=0', 'Kling tasks (rare), first page')
  add('root', '/api/task/?p=0', 'all tasks, first page')
  add('root', '/api/task/?p=0&platform=pika', 'all tasks, Pika')
  add('heavy', '/api/mj/self?p=0', 'own Midjourney tasks, heavy user')
  add('light', '/api/task/self?p=0', 'own tasks, light user')

  add('root', '/api/user/?p=0', 'users, first page')
  add('root', '/api/user/?p=900', 'users, page 900')
  add('root', `/api/user/search?keyword=${light.username}`, 'user search by name')
  add('root', '/api/user/search?keyword=seed_09', 'user search, partial name')
  add('heavy', '/api/token/?p=0', 'own tokens')
  add('root', '/api/channel/?p=0', 'channels, first page')
  add('root', '/api/channel/?p=150', 'channels, page 150')
  add('root', '/api/channel/search?keyword=seed-channel-19', 'channel search')
  add('root', '/api/redemption/?p=0', 'redemption codes, first page')
}

export function consoleCases(data: CaseData): Case[] {
  const cases: Case[] = []
  const add: Add = (who, path, label) => cases.push({ who, path, label })
  logCases(data, add)
  dataCases(data, add)
  listCases(data, add)
  return cases
}
