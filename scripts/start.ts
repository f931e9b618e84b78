/**
 * `npm start`: builds the console when dist/ is missing or older than its sources, then starts the
 * gateway (server/main.ts) on PORT (3000), with SQLite under DATA_DIR (./data) unless DATABASE_URL
 * is set.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newest(path: string): number {
  if (!existsSync(path)) return 0
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  let m = 0
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e)))
  return m
}

const stamp = 'dist/index.html'
const sources = ['src', 'elements', 'demo', 'index.html', 'vite.config.ts', 'vite.classic.config.ts', 'package.json']
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0
if (!built || Math.max(...sources.map(newest)) > built) {
  // what the gateway serves: the console, the element library with its classic build, and their
  // precompressed copies (npm run build adds the declarations for hosts, which serving does not need)
  console.log('Building the console and the element library (npm run build:serve)…')
  const r = spawnSync('npm', ['run', '--silent', 'build:serve'], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (r.status !== 0) {
    console.error('The console build failed; see the messages above.')
    process.exit(r.status ?? 1)
  }
}
await import('../server/main.ts')
