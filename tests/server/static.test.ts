/**
 * The static files (server/static.ts): /lib/* loadable from any site, hashed chunks cached for a
 * year, entry files revalidated, precompressed copies chosen by Accept-Encoding, the console page
 * for client routes.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { after, describe, it } from 'node:test'
import { Hono } from 'hono'
import { serveConsole } from '../../server/static.ts'

const root = mkdtempSync(join(tmpdir(), 'tollgate-static-'))
const ENTRY = 'export const a = 1 // ' + 'x'.repeat(400)
const CHUNK = 'export const b = 2 // ' + 'y'.repeat(400)
mkdirSync(join(root, 'lib/chunks'), { recursive: true })
writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>')
writeFileSync(join(root, 'lib/tollgate.js'), ENTRY)
writeFileSync(join(root, 'lib/tollgate.js.br'), brotliCompressSync(ENTRY))
writeFileSync(join(root, 'lib/tollgate.js.gz'), gzipSync(ENTRY))
writeFileSync(join(root, 'lib/chunks/stores-AbCd12_-.js'), CHUNK)
writeFileSync(join(root, 'lib/chunks/stores-AbCd12_-.js.gz'), gzipSync(CHUNK))
after(() => rmSync(root, { recursive: true, force: true }))

const app = new Hono()
app.use('*', serveConsole(root))
app.notFound((c) => c.text('not found', 404))
const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers })

describe('static files', () => {
  it('serves /lib/* to any site: CORS and CORP cross-origin', async () => {
    const res = await get('/lib/tollgate.js', { origin: 'https://shop.test' })
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('access-control-allow-origin'), '*')
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin')
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8')
  })

  it('caches hashed chunks for a year, immutable; revalidates entry files and the console page', async () => {
    assert.equal((await get('/lib/chunks/stores-AbCd12_-.js')).headers.get('cache-control'), 'public, max-age=31536000, immutable')
    assert.equal((await get('/lib/tollgate.js')).headers.get('cache-control'), 'public, max-age=0, must-revalidate')
    const page = await get('/token')
    assert.equal(page.headers.get('cache-control'), 'public, max-age=0, must-revalidate')
    assert.equal(page.headers.get('access-control-allow-origin'), null)
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/lib/tollgate.js')
    const etag = first.headers.get('etag')!
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
    const again = await get('/lib/tollgate.js', { 'if-none-match': etag })
    assert.equal(again.status, 304)
  })

  it('picks brotli, then gzip, by Accept-Encoding, with Vary', async () => {
    const br = await get('/lib/tollgate.js', { 'accept-encoding': 'gzip, deflate, br, zstd' })
    assert.equal(br.headers.get('content-encoding'), 'br')
    assert.equal(br.headers.get('vary'), 'Accept-Encoding')
    assert.equal(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString(), ENTRY)
    const gz = await get('/lib/tollgate.js', { 'accept-encoding': 'gzip' })
    assert.equal(gz.headers.get('content-encoding'), 'gzip')
    assert.equal(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString(), ENTRY)
    const refused = await get('/lib/tollgate.js', { 'accept-encoding': 'br;q=0, gzip' })
    assert.equal(refused.headers.get('content-encoding'), 'gzip')
    const plain = await get('/lib/tollgate.js')
    assert.equal(plain.headers.get('content-encoding'), null)
    assert.equal(await plain.text(), ENTRY)
    // only a gzip copy of the chunk: a brotli-only browser gets it as is
    const chunk = await get('/lib/chunks/stores-AbCd12_-.js', { 'accept-encoding': 'br' })
    assert.equal(chunk.headers.get('content-encoding'), null)
    assert.equal(await chunk.text(), CHUNK)
  })

  it('never serves the precompressed copies by their own name', async () => {
    assert.equal((await get('/lib/tollgate.js.br')).status, 404)
  })
})
