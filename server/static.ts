import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { MiddlewareHandler } from 'hono'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
}

/**
 * Serves the built console from `root`: files as they are, and the console page (index.html)
 * for every other GET, so client routes such as /token or /channel/edit/3 load the console.
 */
export function serveConsole(root: string): MiddlewareHandler {
  const cache = new Map<string, { body: Uint8Array; type: string }>()
  async function load(path: string) {
    const hit = cache.get(path)
    if (hit) return hit
    try {
      const s = await stat(path)
      if (!s.isFile()) return null
      const entry = { body: new Uint8Array(await readFile(path)), type: TYPES[extname(path)] ?? 'application/octet-stream' }
      if (process.env.NODE_ENV !== 'development') cache.set(path, entry)
      return entry
    } catch {
      return null
    }
  }
  return async function serveConsoleHandler(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const url = new URL(c.req.url)
    let rel: string
    try {
      rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '')
    } catch {
      return c.text('bad path', 400)
    }
    if (rel.split(sep).includes('..')) return c.text('bad path', 400)
    let file = rel === '' ? null : await load(join(root, rel))
    if (!file && rel !== '' && !extname(rel)) file = await load(join(root, rel, 'index.html'))
    const immutable = file && /(^|\/)lib\/.*-[A-Za-z0-9_-]{8}\.js$/.test(rel)
    if (!file) {
      if (extname(rel) && extname(rel) !== '.html') return next()
      file = await load(join(root, 'index.html'))
      if (!file) {
        return c.html(
          '<!doctype html><title>Tollgate</title><p>The console has not been built. Run <code>npm start</code> (it builds it) or <code>npm run build</code>.</p>',
          503,
        )
      }
    }
    c.header('content-type', file.type)
    c.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    return c.body(file.body as unknown as ArrayBuffer)
  }
}
