/**
 * The package a host installs: `npm pack` of the built tree, its contents listed, and two small hosts (plain
 * TypeScript and React 19 JSX) type-checked against the packed declarations, with a host that misuses the
 * API refused, so the declarations are known to carry real types.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../../scripts/manifest.ts'
import { buildTypes } from '../../scripts/types.ts'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string
  dependencies: Record<string, string>
  exports: Record<string, string | { types?: string; default?: string }>
}

function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/lib/tollgate.js'))) {
    const vite = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    assert.equal(vite.status, 0, vite.stderr)
  }
  if (!existsSync(join(ROOT, 'dist/types/elements/index.d.ts'))) buildTypes()
}

function tsc(dir: string): { status: number; out: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--pretty', 'false', '-p', dir], {
    encoding: 'utf8',
  })
  return { status: run.status ?? 1, out: run.stdout + run.stderr }
}

let host = ''
let files: string[] = []

test('npm pack holds the built library, its declarations and the manifest, and nothing of the server', () => {
  ensureBuilt()
  const work = mkdtempSync(join(tmpdir(), 'tollgate-pack-'))
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(pack.status, 0, pack.stderr)
  const [info] = JSON.parse(pack.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[]
  files = info!.files.map((f) => f.path).sort()
  console.log(
    `# ${info!.filename}: ${files.length} files, ${(info!.size / 1024).toFixed(1)} kB packed, ${(info!.unpackedSize / 1024).toFixed(1)} kB unpacked`,
  )
  for (const f of files) console.log(`#   ${f}`)
  for (const must of [
    'package.json',
    'custom-elements.json',
    'vscode.html-custom-data.json',
    'dist/lib/tollgate.js',
    'dist/types/elements/index.d.ts',
    'dist/types/types/react-jsx.d.ts',
    'docs/elements/README.md',
  ]) {
    assert.ok(files.includes(must), `the tarball lacks ${must}`)
  }
  for (const f of files) assert.doesNotMatch(f, /^(server|src|tests|scripts|domain|data)\//, `${f} should not ship`)
  for (const [entry, target] of Object.entries(pkg.exports)) {
    for (const path of typeof target === 'string' ? [target] : Object.values(target)) {
      assert.ok(files.includes(path!.replace(/^\.\//, '')), `export ${entry} points at ${path}, which is not in the tarball`)
    }
  }
  // a host project with the tarball installed as node_modules/tollgate, and React's types beside it
  host = join(work, 'host')
  mkdirSync(join(host, 'node_modules', '@types'), { recursive: true })
  const unpack = spawnSync('tar', ['-xzf', join(work, info!.filename), '-C', join(host, 'node_modules')], { encoding: 'utf8' })
  assert.equal(unpack.status, 0, unpack.stderr)
  spawnSync('mv', [join(host, 'node_modules', 'package'), join(host, 'node_modules', pkg.name)])
  // what `npm install tollgate` brings along: the package's dependencies
  for (const dep of Object.keys(pkg.dependencies)) {
    mkdirSync(join(host, 'node_modules', dep, '..'), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules', dep), join(host, 'node_modules', dep))
  }
  symlinkSync(join(ROOT, 'node_modules', '@types', 'react'), join(host, 'node_modules', '@types', 'react'))
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    skipLibCheck: false,
  }
  writeFileSync(join(host, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['good'] }))
  writeFileSync(join(host, 'tsconfig.bad.json'), JSON.stringify({ compilerOptions, include: ['bad'] }))
})

test('a plain TypeScript host and a React 19 host type-check against the packed declarations', () => {
  assert.ok(host, 'the pack step did not run')
  mkdirSync(join(host, 'good'), { recursive: true })
  writeFileSync(
    join(host, 'good', 'plain.ts'),
    [
      "import { configure, signOut, type TollgateEventDetails, type User } from 'tollgate'",
      "import { TollgateLogin } from 'tollgate/login'",
      "configure({ apiBase: 'https://gateway.example' })",
      "const login = document.createElement('tollgate-login')",
      'login.noLinks = true',
      "login.addEventListener('tollgate-navigate', (event) => {",
      '  event.preventDefault()',
      '  const to: string = event.detail.to',
      '  console.log(to)',
      '})',
      "document.addEventListener('tollgate-error', (event) => console.log(event.detail.status, event.detail.message))",
      "const detail: TollgateEventDetails['tollgate-topup'] = { quota: 1 }",
      'const who = (user: User) => user.username',
      'console.log(TollgateLogin, detail, who)',
      'void signOut()',
    ].join('\n'),
  )
  writeFileSync(
    join(host, 'good', 'app.tsx'),
    [
      "import type {} from 'tollgate/react'",
      'export function App() {',
      '  return (',
      '    <main>',
      '      <tollgate-pricing api-base="https://gateway.example" ontollgate-error={(event) => console.log(event.detail.status)} />',
      '      <tollgate-login no-links ontollgate-navigate={(event) => console.log(event.detail.to)} />',
      '      <tollgate-logs page-size="20" />',
      '    </main>',
      '  )',
      '}',
    ].join('\n'),
  )
  const { status, out } = tsc(host)
  assert.equal(status, 0, out)
})

test('a host that misuses the elements is refused by the packed types', () => {
  assert.ok(host, 'the pack step did not run')
  mkdirSync(join(host, 'bad'), { recursive: true })
  writeFileSync(
    join(host, 'bad', 'bad.tsx'),
    [
      "import type {} from 'tollgate/react'",
      "import { configure } from 'tollgate'",
      'configure({ apiBase: 42 })',
      "document.createElement('tollgate-login').noLinks = 'yes'",
      'export const App = () => <tollgate-pricing api-base={3} ontollgate-navigate={(event) => event.detail.nope} />',
    ].join('\n'),
  )
  const { status, out } = tsc(join(host, 'tsconfig.bad.json'))
  assert.notEqual(status, 0)
  const errors = out.split('\n').filter((line) => line.includes('error TS'))
  assert.ok(
    errors.some((e) => e.includes('bad.tsx(3,')),
    `configure({apiBase: 42}) was accepted:\n${out}`,
  )
  assert.ok(
    errors.some((e) => e.includes('bad.tsx(4,')),
    `noLinks = 'yes' was accepted:\n${out}`,
  )
  assert.ok(
    errors.some((e) => e.includes('bad.tsx(5,')),
    `the JSX misuse was accepted:\n${out}`,
  )
  rmSync(join(host, '..'), { recursive: true, force: true })
})
