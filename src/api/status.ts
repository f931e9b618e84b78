import { get } from './client.ts'
import type { PublicStatus } from './types.ts'

/** GET /api/status: the public status. Quiet: the status store shows its own message on failure. */
export async function load(): Promise<PublicStatus> {
  return (await get<PublicStatus>('/api/status', undefined, { quiet: true })).data
}

export async function notice(): Promise<string> {
  return (await get<string>('/api/notice', undefined, { quiet: true })).data ?? ''
}

export async function about(): Promise<string> {
  return (await get<string>('/api/about', undefined, { quiet: true })).data ?? ''
}

export async function homePageContent(): Promise<string> {
  return (await get<string>('/api/home_page_content', undefined, { quiet: true })).data ?? ''
}
