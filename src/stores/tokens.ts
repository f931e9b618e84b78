import * as tokensApi from '../api/tokens.ts'
import type { TokenBody } from '../api/tokens.ts'
import type { Token } from '../api/types.ts'
import { createPagedList } from './paged-list.ts'
import { PAGE_SIZES } from './prefs.ts'
import { toggleTarget } from '../../domain/token-rules.ts'

export type { TokenBody } from '../api/tokens.ts'

/** My tokens, newest first, shared by every element of the page (the list, a quick edit, a drawer). */
export const tokenList = createPagedList<Token, Record<string, never>>({
  pageSize: PAGE_SIZES[0],
  filters: {},
  idOf: (t) => t.id,
  dedupe: true,
  fetchPage: (p, size) => tokensApi.list(p, size),
})

/** Searches by name and by key (with or without sk-); neither lists the pages again. */
export function searchTokens(keyword: string, key: string): Promise<void> {
  const k = keyword.trim()
  const token = key.trim()
  if (!k && !token) return tokenList.reload()
  return tokenList.showSearch(() => tokensApi.search(k, token))
}

/** Enables a disabled token or disables an enabled one; the row shows the status the server stored. */
export async function toggleToken(token: Token): Promise<void> {
  const status = await tokensApi.setStatus(token.id, toggleTarget(token.status).next)
  tokenList.replace({ id: token.id, status })
}

export async function updateToken(id: number, body: Partial<TokenBody>): Promise<Token> {
  const token = await tokensApi.update(id, body)
  tokenList.replace(token)
  return token
}

/** Creates one token per name, stopping at the first refusal (the client showed why); the count created. */
export async function createTokens(body: TokenBody, names: string[]): Promise<number> {
  let created = 0
  for (const name of names) {
    try {
      await tokensApi.create({ ...body, name })
      created++
    } catch {
      break
    }
  }
  if (created > 0) void tokenList.reload()
  return created
}

export async function removeToken(id: number): Promise<void> {
  await tokensApi.remove(id)
  tokenList.remove(id)
}

export const loadToken = (id: number): Promise<Token> => tokensApi.load(id)

/** The models my group may call (the choices of model limits); none when the call fails. */
export const userModels = (): Promise<string[]> => tokensApi.userModels().catch(() => [])
