/** Web origins (`scheme://host[:port]`): the embedding allow-list's entries (EmbedOrigins, CORS_ORIGINS). */

/** `scheme://host[:port]` with nothing after it (but one slash); the canonical form, or null when it is not one. */
export function canonicalOrigin(value: string): string | null {
  const v = value.trim()
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(v)) return null
  try {
    const u = new URL(v)
    return u.origin === 'null' || u.username || u.password ? null : u.origin
  } catch {
    return null
  }
}

/** The entries of an origin list (newline- or comma-separated); the first that is not an origin is `bad`. */
export function parseOrigins(list: string): { origins: string[]; bad: string | null } {
  const origins: string[] = []
  for (const entry of list.split(/[\n,]/)) {
    if (!entry.trim()) continue
    const o = canonicalOrigin(entry)
    if (!o) return { origins, bad: entry.trim() }
    origins.push(o)
  }
  return { origins, bad: null }
}
