/**
 * The other sites of the cross-site suite, on loopback under made-up names (Chromium maps them
 * with --host-resolver-rules):
 * - http://shop.test:<host port>/ (and evil.test, the same pages on a site the gateway does not
 *   allow): the snippets of docs/embedding.md, word for word, with the documented gateway address
 *   replaced by the test gateway's; /react/ is the React 19 host under tests/embed/react-host,
 *   built here by Vite;
 * - https://gateway.test:<probe port>/: a cookie probe on the gateway's site (self-signed TLS, so
 *   a SameSite=None; Secure cookie can exist at all) that proves the browser refuses third-party cookies.
 * Usage: node tests/embed/host-server.ts <host port> <probe port> <gateway url>
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'

const [hostPort, probePort, gateway] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]!]
const DOCS_GATEWAY = 'https://gateway.example.com'
/** the docs' example of an API address other than the scripts': here the gateway under its loopback address */
const DOCS_API = 'https://api.example.com'
const REACT_DIST = 'tests/embed/.react-dist'

/** The fenced block after `<!-- snippet: name -->` in docs/embedding.md. */
function snippet(name: string): string {
  const docs = readFileSync('docs/embedding.md', 'utf8')
  const m = new RegExp(`<!-- snippet: ${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``).exec(docs)
  if (!m) throw new Error(`docs/embedding.md has no snippet "${name}"`)
  return m[1]!.replaceAll(DOCS_GATEWAY, gateway).replaceAll(DOCS_API, gateway.replace('gateway.test', '127.0.0.1'))
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>\n${body}</body></html>`

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

// the React host, built against this gateway (Vite replaces %VITE_GATEWAY% in its index.html)
execFileSync('node_modules/.bin/vite', ['build', '--config', 'tests/embed/react-host/vite.config.ts', '--logLevel', 'warn'], {
  env: { ...process.env, VITE_GATEWAY: gateway },
  stdio: 'inherit',
})

function send(res: ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' })
  res.end(body)
}

function host(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://host')
  if (url.pathname === '/') return send(res, 200, 'text/html', page('Shop', snippet('module')))
  if (url.pathname === '/configured.html') return send(res, 200, 'text/html', page('Shop (configured)', snippet('configure')))
  if (url.pathname === '/classic.html') return send(res, 200, 'text/html', page('Shop (classic)', snippet('classic')))
  if (url.pathname === '/blank.html') return send(res, 200, 'text/html', page('Blank', ''))
  if (url.pathname.startsWith('/react/')) {
    const rel = normalize(url.pathname.slice('/react/'.length) || 'index.html')
    const file = join(REACT_DIST, rel.startsWith('..') ? 'index.html' : rel)
    if (existsSync(file)) return send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file))
  }
  send(res, 404, 'text/plain', 'not found')
}

// --- the cookie probe on the gateway's site ------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'tollgate-probe-'))
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=gateway.test',
    '-addext',
    'subjectAltName=DNS:gateway.test',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ],
  { stdio: 'ignore' },
)
const probe = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
  const url = new URL(req.url ?? '/', 'https://gateway.test')
  const origin = req.headers.origin
  if (origin) {
    res.setHeader('access-control-allow-origin', origin)
    res.setHeader('access-control-allow-credentials', 'true')
  }
  if (url.pathname === '/set') res.setHeader('set-cookie', 'probe=1; SameSite=None; Secure; Path=/')
  send(res, 200, 'application/json', JSON.stringify({ cookie: req.headers.cookie ?? '' }))
})
rmSync(dir, { recursive: true, force: true })

createServer(host).listen(hostPort, '127.0.0.1')
probe.listen(probePort, '127.0.0.1')
console.log(`hosts on :${hostPort}, cookie probe on :${probePort}, gateway ${gateway}`)
