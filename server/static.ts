import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { Context, MiddlewareHandler } from 'hono'

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

/** The encodings precompressed at build time (scripts/compress.ts), best first, with their file suffix. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const

type Encoding = (typeof ENCODINGS)[number][0]

interface StaticFile {
  type: string
  etag: string
  /** the file as built, and its precompressed copies when the build made them */
  bodies: Partial<Record<Encoding | 'identity', Uint8Array>>
}

/** A hashed chunk under lib/ (name-<8 hash chars>.ext): its URL changes with its content, so it is immutable. */
const HASHED = /(^|\/)lib\/.*-[A-Za-z0-9_-]{8}\.(js|css|woff2|svg|png)$/

/** What the browser accepts, best first among ours (q=0 excluded). */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>()
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name)
  }
  return accepted
}

async function readIfFile(path: string): Promise<Uint8Array | null> {
  try {
    const s = await stat(path)
    return s.isFile() ? new Uint8Array(await readFile(path)) : null
  } catch {
    return null
  }
}

/**
 * Headers of a static answer. Everything under /lib/ may be loaded by any site (the elements are
 * embedded elsewhere): CORS for module scripts and CORP for pages that isolate themselves. Hashed
 * chunks are cached for a year; the stable entry names (tollgate.js, tollgate-login.js, the
 * console page) are revalidated with their ETag so a new release reaches every page at once.
 */
function setHeaders(c: Context, rel: string, file: StaticFile, encoding: Encoding | null): void {
  const path = rel.split(sep).join('/')
  c.header('content-type', file.type)
  c.header('etag', file.etag)
  c.header('cache-control', HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate')
  if (Object.keys(file.bodies).length > 1) c.header('vary', 'Accept-Encoding')
  if (encoding) c.header('content-encoding', encoding)
  if (path.startsWith('lib/')) {
    c.header('access-control-allow-origin', '*')
    c.header('cross-origin-resource-policy', 'cross-origin')
  }
}

/**
 * Serves the built console from `root`: files as they are (or their precompressed .br/.gz copy
 * when the browser accepts it), and the console page (index.html) for every other GET, so client
 * routes such as /token or /channel/edit/3 load the console.
 */
export function serveConsole(root: string): MiddlewareHandler {
  const cache = new Map<string, StaticFile>()
  async function load(path: string): Promise<StaticFile | null> {
    const hit = cache.get(path)
    if (hit) return hit
    const identity = await readIfFile(path)
    if (!identity) return null
    const file: StaticFile = {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      bodies: { identity },
    }
    for (const [encoding, suffix] of ENCODINGS) {
      const body = await readIfFile(path + suffix)
      if (body) file.bodies[encoding] = body
    }
    if (process.env.NODE_ENV !== 'development') cache.set(path, file)
    return file
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
    if (/\.(br|gz)$/.test(rel)) return next()
    let file = rel === '' ? null : await load(join(root, rel))
    if (!file && rel !== '' && !extname(rel)) file = await load(join(root, rel, 'index.html'))
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
    const accepted = acceptedEncodings(c.req.header('accept-encoding'))
    const encoding = ENCODINGS.map(([name]) => name).find((name) => file.bodies[name] && accepted.has(name)) ?? null
    setHeaders(c, rel, file, encoding)
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304)
    return c.body(file.bodies[encoding ?? 'identity'] as unknown as ArrayBuffer)
  }
}
