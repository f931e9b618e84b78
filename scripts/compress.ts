/**
 * Precompresses the build (run by `npm run build` after both Vite builds): every text file under
 * dist/ gets a .br (brotli, quality 11) and a .gz (gzip, level 9) beside it, so the gateway answers
 * compressed bytes without compressing per request (server/static.ts picks one by Accept-Encoding).
 * A copy that is not smaller than the file is not written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const DIST = process.argv[2] ?? 'dist'
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (TEXT.test(name)) yield path
  }
}

let count = 0
for (const path of files(DIST)) {
  const body = readFileSync(path)
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  })
  const gz = gzipSync(body, { level: 9 })
  if (br.length < body.length) writeFileSync(`${path}.br`, br)
  if (gz.length < body.length) writeFileSync(`${path}.gz`, gz)
  count++
}
console.log(`compress: ${count} files precompressed (br, gzip) in ${DIST}`)
