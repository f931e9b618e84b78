// Size figures of the code for the closing notes of clean-ups: the largest code files and every
// function over 80 lines, with their counts. Reads the files git tracks (plus untracked ones it does
// not ignore) under domain/, elements/, server/, src/, scripts/ and tests/, and the configuration
// files at the top. Dictionaries are data and
// left out; describe() callbacks are containers of tests and not counted as functions.
//
//   node scripts/metrics.ts [--top N] [--limit LINES] [--rev REV]
//
// --rev measures a commit instead of the working tree (the "before" of a closing note).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import ts from 'typescript'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const top = option('--top', 15)
const revAt = args.indexOf('--rev')
const rev = revAt >= 0 ? args[revAt + 1] : null
const limit = option('--limit', 80)
const fileLimit = 400

const roots = ['domain', 'elements', 'server', 'src', 'scripts', 'tests']
const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8', maxBuffer: 64 << 20 })
const listed = rev ? git('ls-tree', '-r', '--name-only', rev) : git('ls-files', '--cached', '--others', '--exclude-standard')
const files = listed
  .split('\n')
  // the code folders and the configuration files at the top
  .filter((f) => roots.includes(f.split('/')[0]!) || !f.includes('/'))
  .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
  // dictionaries are data, not code (issue 9: "dictionaries aside")
  .filter((f) => !/^src\/i18n\/(en|zh-CN)(\.ts$|\/)/.test(f) && !f.startsWith('server/i18n/messages/'))

interface Sized {
  where: string
  lines: number
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

function functionName(node: ts.Node): string {
  const parent = node.parent
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText()
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText()
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText()
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`
  return '(anonymous)'
}

/** A describe() block only groups tests: its callback is a container, not a function to split. */
function isSuite(node: ts.Node): boolean {
  const call = node.parent
  return !!call && ts.isCallExpression(call) && /^(test\.)?describe\b/.test(call.expression.getText())
}

const sizes: Sized[] = []
const functions: Sized[] = []
for (const file of files) {
  let text: string
  try {
    text = rev ? git('show', `${rev}:${file}`) : readFileSync(file, 'utf8')
  } catch {
    continue // deleted in the working tree
  }
  sizes.push({ where: file, lines: lineCount(text) })
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = end - start + 1
      if (lines > limit && !isSuite(node)) functions.push({ where: `${file}:${start + 1} ${functionName(node)}`, lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}

sizes.sort((a, b) => b.lines - a.lines)
functions.sort((a, b) => b.lines - a.lines)
const over = sizes.filter((s) => s.lines > fileLimit)
console.log(`${files.length} code files; ${over.length} over ${fileLimit} lines; ${functions.length} functions over ${limit} lines`)
console.log(`\nlargest files:`)
for (const s of sizes.slice(0, top)) console.log(`  ${String(s.lines).padStart(5)}  ${s.where}`)
console.log(`\nfunctions over ${limit} lines:`)
for (const f of functions) console.log(`  ${String(f.lines).padStart(5)}  ${f.where}`)
