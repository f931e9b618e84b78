/**
 * Storybook: the fixtures keep the real server's wire shape (a fresh capture is compared with the
 * committed one), and every built story renders in Debian's Chromium without a console error.
 * axe-core runs on every story; its serious and critical violations are listed and fail the test
 * (STORYBOOK_AXE_STRICT=0 only lists them, for a look while fixing).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser-suites.ts'
import { ROOT } from '../../scripts/manifest.ts'
import { capture } from '../../scripts/capture-fixtures.ts'

const FIXTURES = join(ROOT, 'stories/fixtures')
const STATIC = join(ROOT, 'storybook-static')
const AXE_STRICT = process.env.STORYBOOK_AXE_STRICT !== '0'
/** STORYBOOK_STORIES=tollgate-login checks only the stories whose id contains it (while working on one element) */
const ONLY = process.env.STORYBOOK_STORIES ?? ''

/** Keys and value types of a JSON value; a list's items are merged into the set of their shapes. */
export function wireShape(value: unknown): unknown {
  if (value === null) return 'null'
  if (Array.isArray(value)) {
    const items = [...new Set(value.map((v) => JSON.stringify(wireShape(v))))].sort()
    return { list: items.map((s) => JSON.parse(s)) }
  }
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, wireShape((value as Record<string, unknown>)[k])]),
    )
  }
  return typeof value
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { answers: Record<string, { status: number; body: unknown }> }

test('a fresh capture from the real server has the wire shape of the committed fixtures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-fixtures-'))
  try {
    const files = await capture(dir)
    assert.deepEqual(files.toSorted(), readdirSync(FIXTURES).toSorted(), 'the fixture files')
    for (const file of files) {
      const fresh = readJson(join(dir, file)).answers
      const committed = readJson(join(FIXTURES, file)).answers
      assert.deepEqual(Object.keys(fresh).toSorted(), Object.keys(committed).toSorted(), `${file}: the captured requests`)
      for (const key of Object.keys(fresh)) {
        const what = `${file} ${key}: the wire changed; run 'npm run fixtures' and review the stories`
        assert.equal(fresh[key]!.status, committed[key]!.status, what)
        assert.deepEqual(wireShape(fresh[key]!.body), wireShape(committed[key]!.body), what)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/** The newest modification time under the paths the Storybook build reads. */
function newestSource(): number {
  let newest = 0
  const walk = (path: string) => {
    const st = statSync(path)
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
    else newest = Math.max(newest, st.mtimeMs)
  }
  for (const p of ['.storybook', 'stories', 'src', 'elements', 'domain', 'custom-elements.json', 'package-lock.json']) {
    if (existsSync(join(ROOT, p))) walk(join(ROOT, p))
  }
  return newest
}

/** Builds storybook-static/ unless a build newer than every source is there; returns the seconds it took (0: reused). */
function ensureBuilt(): number {
  const index = join(STATIC, 'index.json')
  if (existsSync(index) && statSync(index).mtimeMs > newestSource()) return 0
  const started = Date.now()
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/storybook/dist/bin/dispatcher.js'), 'build', '--quiet', '-o', STATIC], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
  })
  assert.equal(run.status, 0, run.stdout + run.stderr)
  return (Date.now() - started) / 1000
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
}

async function serveStatic(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '')
    if (path === '/favicon.ico') {
      res.writeHead(204).end() // Chromium asks for it; Storybook ships favicon.svg
      return
    }
    const file = join(STATIC, path.endsWith('/') ? `${path}index.html` : path)
    if (!file.startsWith(STATIC) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end()
      return
    }
    // hashed assets: the browser keeps them across the stories
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' })
    res.end(readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

interface Violation {
  id: string
  impact: string
  help: string
  nodes: Array<{ target: unknown[] }>
}

interface StoryReport {
  id: string
  errors: string[]
  violations: Violation[]
}

/**
 * A worker's page, kept from story to story: each story is a fresh document in it (its own
 * modules, stores and session), but the renderer process is not started again for each, which on
 * this kind of machine cost more than the story itself.
 */
async function storyPage(context: BrowserContext) {
  const page = await context.newPage()
  let errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`.trim())
  })
  page.on('pageerror', (e) => errors.push(String(e)))
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`)
  })
  return {
    page,
    /** what the story said from here on */
    listen: () => (errors = []),
  }
}

/** Opens one story's iframe in the worker's page, waits for the element to render and settle, runs axe. */
async function checkStory(sp: Awaited<ReturnType<typeof storyPage>>, base: string, id: string): Promise<StoryReport> {
  const { page } = sp
  await page.setViewportSize(id.endsWith('--mobile-375') ? { width: 375, height: 812 } : { width: 1280, height: 800 })
  const errors = sp.listen()
  try {
    await page.goto(`${base}/iframe.html?id=${id}&viewMode=story`)
    await page.waitForFunction(() => document.querySelector('#storybook-root > *')?.shadowRoot?.querySelector('.tg-root'), null, {
      timeout: 15_000,
    })
    // the screens load, lazy chunks arrive, toasts show: let the story settle before judging it
    await page.waitForTimeout(700)
    await page.addScriptTag({ path: join(ROOT, 'node_modules/axe-core/axe.min.js') })
    const violations = (await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] })
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: any) => ({ target: n.target })),
      }))
    })) as Violation[]
    return { id, errors: [...errors], violations: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') }
  } catch (e) {
    return { id, errors: [...errors, `did not render: ${String(e).split('\n')[0]}`], violations: [] }
  } finally {
    // the story's document ends here, so that nothing it says while unloading counts for the next
    await page.goto('about:blank').catch(() => undefined)
  }
}

/** Serious and critical violations grouped by rule: its help text, the elements and how many stories, sample targets. */
function axeSummary(reports: StoryReport[]): string[] {
  const byRule = new Map<string, { impact: string; help: string; stories: number; elements: Set<string>; targets: Set<string> }>()
  for (const r of reports) {
    for (const v of r.violations) {
      const entry = byRule.get(v.id) ?? {
        impact: v.impact,
        help: v.help,
        stories: 0,
        elements: new Set<string>(),
        targets: new Set<string>(),
      }
      entry.stories++
      entry.elements.add(/^elements-(.+)--/.exec(r.id)?.[1] ?? r.id)
      for (const n of v.nodes) entry.targets.add(JSON.stringify(n.target))
      byRule.set(v.id, entry)
    }
  }
  return [...byRule].map(
    ([id, e]) =>
      `${id} (${e.impact}): ${e.help}; ${e.stories} stories of ${[...e.elements].join(', ')}; ` +
      `targets ${[...e.targets].slice(0, 4).join(' ')}${e.targets.size > 4 ? ` and ${e.targets.size - 4} more` : ''}`,
  )
}

test('every built story renders in Chromium without a console error (axe-core: serious and critical)', async () => {
  const buildSeconds = ensureBuilt()
  const index = JSON.parse(readFileSync(join(STATIC, 'index.json'), 'utf8')) as { entries: Record<string, { id: string; type: string }> }
  const ids = Object.values(index.entries)
    .filter((e) => e.type === 'story')
    .map((e) => e.id)
    .filter((id) => !ONLY || id.includes(ONLY))
  if (!ONLY) assert.ok(ids.length >= 15 * 9, `${ids.length} stories: expected one per element and state`)
  const { server, base } = await serveStatic()
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  const started = Date.now()
  const reports: StoryReport[] = []
  try {
    // two stories at a time: the machine's cores are shared
    const queue = [...ids]
    const worker = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const sp = await storyPage(context)
      for (let id = queue.shift(); id; id = queue.shift()) reports.push(await checkStory(sp, base, id))
      await context.close()
    }
    await Promise.all([worker(), worker()])
  } finally {
    await browser.close()
    server.close()
  }
  const failing = reports.filter((r) => r.errors.length)
  const axe = axeSummary(reports)
  console.log(
    `storybook: ${reports.length} stories checked in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      (buildSeconds ? `build ${buildSeconds.toFixed(1)} s` : 'build reused (newer than every source)'),
  )
  if (axe.length) {
    console.log(`axe-core, serious and critical (${AXE_STRICT ? 'failing' : 'listed only: STORYBOOK_AXE_STRICT=0'}):`)
    for (const line of axe) console.log(`  ${line}`)
  }
  assert.deepEqual(
    failing.map((r) => `${r.id}: ${r.errors.join(' | ')}`),
    [],
    'console errors',
  )
  if (AXE_STRICT) assert.deepEqual(axe, [], 'axe-core violations')
})
