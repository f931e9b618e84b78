/**
 * Type declarations for hosts: `dist/types/`, what the package's `types` and `exports` point at.
 * tsc emits declarations for the element entries; only the files those declarations reach are kept
 * (a host sees configure/signIn/signOut, the event map, each element's attributes and properties,
 * not the screens behind them), plus the generated React JSX typings (`types/react-jsx.d.ts`).
 *
 *   node scripts/types.ts      (run by `npm run build`)
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from './manifest.ts'

const TMP = join(ROOT, '.tools', 'types-emit')
const OUT = join(ROOT, 'dist', 'types')

/** Relative module specifiers a declaration file imports or re-exports. */
export function specifiers(source: string): string[] {
  const found = new Set<string>()
  for (const m of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) found.add(m[1]!)
  return [...found]
}

function emit(entries: string[]): void {
  rmSync(TMP, { recursive: true, force: true })
  const config = join(ROOT, '.tools', 'tsconfig.types.json')
  mkdirSync(dirname(config), { recursive: true })
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: TMP, rootDir: ROOT, types: ['vite/client'] },
      include: ['../src/**/*.d.ts'],
      files: entries.map((e) => join(ROOT, e)),
    }),
  )
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8' })
  if (tsc.status !== 0)
    throw new Error(`tsc could not emit the declarations:\n${(tsc.stdout + tsc.stderr).split('\n').slice(0, 20).join('\n')}`)
}

/** Copies the declarations reachable from the entries, following relative imports. */
function keepReachable(entries: string[]): string[] {
  const todo = entries.map((e) => join(TMP, e.replace(/\.ts$/, '.d.ts')))
  const seen = new Set<string>()
  while (todo.length) {
    const file = todo.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    for (const spec of specifiers(source)) {
      const target = resolve(dirname(file), spec).replace(/\.tsx?$/, '')
      const candidate = [`${target}.d.ts`, join(target, 'index.d.ts')].find(existsSync)
      if (candidate) todo.push(candidate)
      else if (!spec.endsWith('.css') && !spec.endsWith('.css?inline'))
        throw new Error(`${relative(TMP, file)} imports ${spec}, which has no declaration`)
    }
  }
  rmSync(OUT, { recursive: true, force: true })
  for (const file of seen) cpSync(file, join(OUT, relative(TMP, file)))
  return [...seen].map((f) => relative(TMP, f)).sort()
}

export function buildTypes(): string[] {
  const entries = readdirSync(join(ROOT, 'elements'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => `elements/${f}`)
  emit(entries)
  const kept = keepReachable(entries)
  cpSync(join(ROOT, 'types', 'react-jsx.d.ts'), join(OUT, 'types', 'react-jsx.d.ts'))
  return [...kept, 'types/react-jsx.d.ts']
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = buildTypes()
  console.log(`dist/types: ${files.length} declaration files`)
}
