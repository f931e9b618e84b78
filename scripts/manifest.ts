/**
 * The element reference, generated from the JSDoc block above each `defineElement(…)` in `elements/`:
 *   - `custom-elements.json` (the Custom Elements Manifest, schema 2.1.0) that editors and Storybook read,
 *   - `vscode.html-custom-data.json` (VS Code's HTML custom data: tags and attributes with their help),
 *   - `docs/elements/<tag>.md`, one reference page per element, and `docs/elements/README.md`.
 *
 *   node scripts/manifest.ts           writes them
 *   node scripts/manifest.ts --check   exits 1 and lists every drift (files out of date, or an attribute the
 *                                      element reads that its JSDoc lacks, or the reverse)
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface Attr {
  name: string
  type: string
  description: string
}
export interface Fires {
  name: string
  type: string
  description: string
}
export interface Named {
  name: string
  description: string
  default?: string
}
export interface ElementDoc {
  tag: string
  className: string
  module: string
  summary: string
  attributes: Attr[]
  events: Fires[]
  cssParts: Named[]
  cssProperties: Named[]
  slots: Named[]
  /** the props `defineElement` is given: camelCase name → type; the attributes the element really reads */
  props: Record<string, string>
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/** `{type} name - description`, `name - description` or `[name=default] - description`. */
function splitTag(body: string): { type: string; name: string; def?: string; description: string } {
  let rest = body.trim()
  let type = ''
  if (rest.startsWith('{')) {
    let depth = 0
    let end = 0
    for (; end < rest.length; end++) {
      if (rest[end] === '{') depth++
      else if (rest[end] === '}' && --depth === 0) break
    }
    type = rest.slice(1, end).trim()
    rest = rest.slice(end + 1).trim()
  }
  const match = /^(\[[^\]]+\]|\S+)\s*(?:-\s*)?([\s\S]*)$/.exec(rest)
  let name = match?.[1] ?? ''
  let def: string | undefined
  if (name.startsWith('[')) {
    const [n, d] = name.slice(1, -1).split('=')
    name = n!.trim()
    def = d?.trim()
  }
  return { type, name, def, description: (match?.[2] ?? '').replace(/\s+/g, ' ').trim() }
}

/** Reads one element module: its JSDoc tags and the props handed to `defineElement`. */
export function parseElement(file: string): ElementDoc | null {
  const source = readFileSync(join(ROOT, 'elements', file), 'utf8')
  const define = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+) = defineElement\(\s*'([^']+)'\s*,\s*\w+\s*(?:,\s*\{([^}]*)\})?/.exec(
    source,
  )
  if (!define) return null
  const [, block, className, tag, propsText] = define
  const lines = block!.split('\n').map((line) => line.replace(/^\s*\* ?/, ''))
  const tags: { tag: string; body: string }[] = []
  for (const line of lines) {
    const start = /^@(\w+)\s*(.*)$/.exec(line)
    if (start) tags.push({ tag: start[1]!, body: start[2]! })
    else if (tags.length) tags[tags.length - 1]!.body += '\n' + line
  }
  const doc: ElementDoc = {
    tag: tag!,
    className: className!,
    module: `elements/${file}`,
    summary: '',
    attributes: [],
    events: [],
    cssParts: [],
    cssProperties: [],
    slots: [],
    props: {},
  }
  for (const { tag: name, body } of tags) {
    const part = splitTag(body)
    if (name === 'summary') doc.summary = body.replace(/\s+/g, ' ').trim()
    else if (name === 'tag' && body.trim() !== tag) throw new Error(`${file}: @tag ${body.trim()} but defineElement('${tag}')`)
    else if (name === 'attr') doc.attributes.push({ name: part.name, type: part.type, description: part.description })
    else if (name === 'fires') doc.events.push({ name: part.name, type: part.type, description: part.description })
    else if (name === 'csspart') doc.cssParts.push({ name: part.name, description: part.description })
    else if (name === 'cssprop') doc.cssProperties.push({ name: part.name, default: part.def, description: part.description })
    else if (name === 'slot') doc.slots.push({ name: part.name, description: part.description })
  }
  for (const entry of (propsText ?? '').split(',')) {
    const m = /(\w+)\s*:\s*'(\w+)'/.exec(entry)
    if (m) doc.props[m[1]!] = m[2]!
  }
  return doc
}

export function readElements(): ElementDoc[] {
  return readdirSync(join(ROOT, 'elements'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map(parseElement)
    .filter((d): d is ElementDoc => d !== null)
}

/** Attributes the element reads that its JSDoc lacks, JSDoc attributes it does not read, and type mismatches. */
export function attributeDrift(doc: ElementDoc): string[] {
  const problems: string[] = []
  const documented = new Map(doc.attributes.map((a) => [a.name, a]))
  for (const [prop, type] of Object.entries(doc.props)) {
    const attr = documented.get(kebab(prop))
    if (!attr) problems.push(`${doc.tag}: reads attribute "${kebab(prop)}" that its JSDoc lacks`)
    else if (attr.type !== type) problems.push(`${doc.tag}: attribute "${attr.name}" is ${type} in code, ${attr.type} in JSDoc`)
  }
  for (const attr of doc.attributes) {
    if (!(camel(attr.name) in doc.props))
      problems.push(`${doc.tag}: JSDoc documents attribute "${attr.name}" that the element does not read`)
  }
  return problems
}

export function manifest(docs: ElementDoc[]): object {
  return {
    schemaVersion: '2.1.0',
    readme: 'docs/elements/README.md',
    modules: docs.map((d) => ({
      kind: 'javascript-module',
      path: d.module,
      declarations: [
        {
          kind: 'class',
          name: d.className,
          tagName: d.tag,
          customElement: true,
          summary: d.summary,
          superclass: { name: 'HTMLElement' },
          attributes: d.attributes.map((a) => ({
            name: a.name,
            type: { text: a.type },
            description: a.description,
            fieldName: camel(a.name),
          })),
          members: d.attributes.map((a) => ({
            kind: 'field',
            name: camel(a.name),
            type: { text: a.type === 'boolean' ? 'boolean' : `${a.type} | undefined` },
            description: a.description,
            attribute: a.name,
            ...(a.type === 'boolean' ? { reflects: true } : {}),
          })),
          events: d.events.map((e) => ({ name: e.name, type: { text: e.type }, description: e.description })),
          cssParts: d.cssParts.map((p) => ({ name: p.name, description: p.description })),
          cssProperties: d.cssProperties.map((p) => ({
            name: p.name,
            description: p.description,
            ...(p.default ? { default: p.default } : {}),
          })),
          slots: d.slots.map((s) => ({ name: s.name, description: s.description })),
        },
      ],
      exports: [
        { kind: 'js', name: d.className, declaration: { name: d.className, module: d.module } },
        { kind: 'custom-element-definition', name: d.tag, declaration: { name: d.className, module: d.module } },
      ],
    })),
  }
}

export function vscodeData(docs: ElementDoc[]): object {
  return {
    version: 1.1,
    tags: docs.map((d) => ({
      name: d.tag,
      description: d.summary,
      attributes: d.attributes.map((a) => ({
        name: a.name,
        description: a.description,
        ...(a.type === 'boolean' ? { valueSet: 'v' } : {}),
        ...(a.name === 'lang' ? { values: [{ name: 'en' }, { name: 'zh-CN' }] } : {}),
      })),
      references: [{ name: 'Reference', url: `https://github.com/tollgate/tollgate/blob/main/docs/elements/${d.tag}.md` }],
    })),
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|')

function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '_None._\n'
  return (
    [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join(
      '\n',
    ) + '\n'
  )
}

export function page(d: ElementDoc): string {
  const code = (s: string) => (s ? `\`${s}\`` : '')
  return [
    `# \`<${d.tag}>\``,
    '',
    '<!-- generated by scripts/manifest.ts from the JSDoc in ' + d.module + '; edit that block, then run `node scripts/manifest.ts` -->',
    '',
    d.summary,
    '',
    '```html',
    `<script type="module" src="https://your-gateway.example/lib/${d.tag}.js"></script>`,
    `<${d.tag}></${d.tag}>`,
    '```',
    '',
    '## Attributes',
    '',
    table(
      ['Attribute', 'Property', 'Type', 'Description'],
      d.attributes.map((a) => [code(a.name), code(camel(a.name)), code(a.type), a.description]),
    ),
    '## Events',
    '',
    'Every event bubbles and crosses shadow roots (`composed`).',
    '',
    table(
      ['Event', 'Detail', 'Description'],
      d.events.map((e) => [code(e.name), code(e.type), e.description]),
    ),
    '## CSS parts',
    '',
    table(
      ['Part', 'Description'],
      d.cssParts.map((p) => [code(p.name), p.description]),
    ),
    '## CSS custom properties',
    '',
    table(
      ['Property', 'Default', 'Description'],
      d.cssProperties.map((p) => [code(p.name), code(p.default ?? ''), p.description]),
    ),
    ...(d.slots.length
      ? [
          '## Slots',
          '',
          table(
            ['Slot', 'Description'],
            d.slots.map((s) => [code(s.name || '(default)'), s.description]),
          ),
        ]
      : []),
  ].join('\n')
}

export function index(docs: ElementDoc[]): string {
  return [
    '# Element reference',
    '',
    '<!-- generated by scripts/manifest.ts; do not edit by hand -->',
    '',
    'Every Tollgate element, generated from the JSDoc on its definition (the same data as `custom-elements.json`',
    'and `vscode.html-custom-data.json`). See [embedding](../embedding.md) for putting them on a page.',
    '',
    table(
      ['Element', 'What it shows'],
      docs.map((d) => [`[\`<${d.tag}>\`](${d.tag}.md)`, d.summary.split(/(?<=\.)\s/)[0] ?? '']),
    ),
  ].join('\n')
}

const tsType = (type: string) => (type === 'boolean' ? 'boolean' : type === 'number' ? 'number | string' : 'string')

/** JSX typings for React 19 hosts: each tag with its attributes and its events as `on<event>` props. */
export function reactJsx(docs: ElementDoc[]): string {
  const tags = docs.map((d) => {
    const attrs = d.attributes.filter((a) => a.name !== 'lang').map((a) => `'${a.name}'?: ${tsType(a.type)}`)
    const events = d.events.map((e) => `'on${e.name}'?: (event: TollgateEventMap['${e.name}']) => void`)
    return `      '${d.tag}': TollgateJsx<{ ${[...attrs, ...events].join('; ')} }>`
  })
  return [
    "// generated by scripts/manifest.ts from the elements' JSDoc; do not edit by hand",
    '// React 19 sets attributes and properties on custom elements and listens to `on<event-name>` props.',
    "import type { DetailedHTMLProps, HTMLAttributes } from 'react'",
    "import type { TollgateEventDetails } from '../elements/events.ts'",
    '',
    'type TollgateEventMap = { [K in keyof TollgateEventDetails]: CustomEvent<TollgateEventDetails[K]> }',
    'type TollgateJsx<Own> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & Own',
    '',
    "declare module 'react' {",
    '  namespace JSX {',
    '    interface IntrinsicElements {',
    ...tags,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n')
}

/** Every generated file: path (from the root) → content. */
export function generated(docs = readElements()): Map<string, string> {
  const files = new Map<string, string>()
  files.set('custom-elements.json', JSON.stringify(manifest(docs), null, 2) + '\n')
  files.set('vscode.html-custom-data.json', JSON.stringify(vscodeData(docs), null, 2) + '\n')
  files.set('types/react-jsx.d.ts', reactJsx(docs))
  files.set('docs/elements/README.md', index(docs))
  for (const d of docs) files.set(`docs/elements/${d.tag}.md`, page(d))
  return files
}

/** Everything that disagrees: stale or missing generated files, and attribute drift between code and JSDoc. */
export function drift(): string[] {
  const docs = readElements()
  const problems = docs.flatMap(attributeDrift)
  for (const [path, content] of generated(docs)) {
    const full = join(ROOT, path)
    if (!existsSync(full)) problems.push(`${path} is missing: run node scripts/manifest.ts`)
    else if (readFileSync(full, 'utf8') !== content) problems.push(`${path} is out of date: run node scripts/manifest.ts`)
  }
  const pages = new Set(docs.map((d) => `${d.tag}.md`).concat('README.md'))
  if (existsSync(join(ROOT, 'docs/elements'))) {
    for (const f of readdirSync(join(ROOT, 'docs/elements'))) if (!pages.has(f)) problems.push(`docs/elements/${f} documents no element`)
  }
  return problems
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const problems = drift()
    for (const p of problems) console.log(p)
    process.exit(problems.length ? 1 : 0)
  }
  const problems = readElements().flatMap(attributeDrift)
  if (problems.length) {
    for (const p of problems) console.log(p)
    process.exit(1)
  }
  mkdirSync(join(ROOT, 'docs/elements'), { recursive: true })
  mkdirSync(join(ROOT, 'types'), { recursive: true })
  for (const [path, content] of generated()) writeFileSync(join(ROOT, path), content)
  console.log('wrote custom-elements.json, vscode.html-custom-data.json and docs/elements/')
}
