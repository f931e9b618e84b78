import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * One build for everything:
 * - dist/index.html: the console page (a full-page <tollgate-console>);
 * - dist/demo/*.html: pages that embed the elements the way a customer would;
 * - dist/lib/<entry>.js: one ES module per element entry with a stable name, sharing hashed chunks
 *   in dist/lib/chunks/ (one copy of the stores, so every element on a page shares the session).
 */
const libEntries: Record<string, string> = {
  tollgate: 'elements/index.ts',
  'tollgate-config': 'elements/config.ts',
  'tollgate-console': 'elements/console.ts',
  'tollgate-login': 'elements/login.ts',
  'tollgate-register': 'elements/register.ts',
  'tollgate-reset': 'elements/reset.ts',
  'tollgate-reset-confirm': 'elements/reset-confirm.ts',
  'tollgate-tokens': 'elements/tokens.ts',
  'tollgate-logs': 'elements/logs.ts',
  'tollgate-dashboard': 'elements/dashboard.ts',
  'tollgate-channels': 'elements/channels.ts',
  'tollgate-users': 'elements/users.ts',
  'tollgate-redemptions': 'elements/redemptions.ts',
  'tollgate-settings': 'elements/settings.ts',
  'tollgate-topup': 'elements/topup.ts',
  'tollgate-tasks': 'elements/tasks.ts',
  'tollgate-pricing': 'elements/pricing.ts',
}

const pages: Record<string, string> = {
  index: 'index.html',
  'demo/index': 'demo/index.html',
  'demo/console': 'demo/console.html',
  'demo/login': 'demo/login.html',
  'demo/reseller': 'demo/reseller.html',
}

/**
 * Vite wraps every import() in a helper that preloads the imported chunk's dependencies; with
 * modulePreload off it has nothing to preload (every call passes no dependencies) but still ships
 * its 3.4 kB (0.8 kB gzip) in the chunk every element loads. This plain import() stands in for it.
 */
const plainDynamicImport: Plugin = {
  name: 'tollgate:plain-dynamic-import',
  enforce: 'pre',
  resolveId: (id) => (id === PRELOAD_HELPER ? id : null),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load()' : null),
}
const PRELOAD_HELPER = '\0vite/preload-helper.js'

/**
 * Shoelace ships each component's styles as a Lit css`…` template, indented and commented: 110 kB
 * of the shared chunk. This squeezes their whitespace and comments out (never touching the
 * interpolated parts or the space before a colon, which is a descendant combinator in a selector).
 */
const squeezeCss = (css: string) =>
  css
    .split(/(\$\{[^}]*\})/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};,>])\s*/g, '$1')
            .replace(/:\s+/g, ':')
            .replace(/;}/g, '}'),
    )
    .join('')
export const shoelaceCss: Plugin = {
  name: 'tollgate:shoelace-css',
  transform: {
    filter: { id: /[\\/]@shoelace-style[\\/]shoelace[\\/]dist[\\/]chunks[\\/]chunk\.[A-Z0-9]+\.js$/ },
    handler: (code) => (code.includes('css`') ? code.replace(/\bcss`([^`]*)`/g, (_, css: string) => `css\`${squeezeCss(css)}\``) : null),
  },
}

/**
 * Shoelace's icon libraries, cut to what is shown. Its `system` library (the icons its components
 * draw: the input's clear and eye buttons, the alert's close button, the select's chevron, the
 * checkbox's check…) is one table of 18 SVGs, 2 kB of gzip in every element though the first paint
 * draws five. Here the table starts empty and each module that renders a system icon (a Shoelace
 * component's chunk, or ours: `library="system"`) imports one small module per icon it names, which
 * adds that icon: an element ships the icons of the components it loads, and a component loaded
 * later brings its own before it renders. Its `default` library fetched icons from a base path; ours
 * (src/ui/icons/library.ts) replaces it as the library loads, so it no longer needs the base path.
 */
const SHOELACE_CHUNK = /[\\/]@shoelace-style[\\/]shoelace[\\/]dist[\\/]chunks[\\/]chunk\.[A-Z0-9]+\.js$/
const SYSTEM_ICONS = '\0tollgate:system-icons'
const SYSTEM_ICON = '\0tollgate:system-icon:'
const USES_SYSTEM_ICONS = /\blibrary(?:=|:\s*)["']system["']/
let systemIconTable: Record<string, string> | undefined
function systemIcons(): Record<string, string> {
  if (systemIconTable) return systemIconTable
  const icon = fileURLToPath(new URL('node_modules/@shoelace-style/shoelace/dist/components/icon/', import.meta.url))
  const chunk = /from "(\.\.\/\.\.\/chunks\/chunk\.[A-Z0-9]+\.js)"/.exec(readFileSync(`${icon}library.system.js`, 'utf8'))![1]!
  const table = /\nvar icons = (\{[\s\S]*?\n\});\n/.exec(readFileSync(new URL(chunk, `file://${icon}`), 'utf8'))![1]!
  return (systemIconTable = new Function(`return ${table}`)() as Record<string, string>)
}
export const shoelaceIcons: Plugin = {
  name: 'tollgate:shoelace-icons',
  resolveId: (id) => (id === SYSTEM_ICONS || id.startsWith(SYSTEM_ICON) ? id : null),
  load(id) {
    if (id === SYSTEM_ICONS) return 'export const icons = {}'
    if (!id.startsWith(SYSTEM_ICON)) return null
    const name = id.slice(SYSTEM_ICON.length)
    return `import { icons } from ${JSON.stringify(SYSTEM_ICONS)}\nicons[${JSON.stringify(name)}] = ${JSON.stringify(systemIcons()[name])}`
  },
  transform: {
    filter: { id: { exclude: /^\0/ }, code: /library(?:=|:\s*)["']system["']|src\/components\/icon\/library\.(?:system|default)\.ts/ },
    handler(code, id) {
      if (SHOELACE_CHUNK.test(id) && code.includes('// src/components/icon/library.system.ts'))
        return code.replace(/\nvar icons = \{[\s\S]*?\n\};\n/, `\nimport { icons } from ${JSON.stringify(SYSTEM_ICONS)};\n`)
      if (SHOELACE_CHUNK.test(id) && code.includes('// src/components/icon/library.default.ts'))
        return code
          .replace(/import \{\s*getBasePath\s*\} from "[^"]+";/, '')
          .replace(/resolver: \(name\) => getBasePath\(`assets\/icons\/\$\{name\}\.svg`\)/, 'resolver: () => ""')
      if (!USES_SYSTEM_ICONS.test(code)) return null
      const names = Object.keys(systemIcons()).filter((name) => new RegExp(`["'\`]${name}["'\`]`).test(code))
      return names.map((name) => `import ${JSON.stringify(SYSTEM_ICON + name)};\n`).join('') + code
    },
  },
}

/**
 * Two chunks hold what elements share, each one file: a page pays gzip's start-up and loses its
 * cross-references once per file, and left alone the bundler cuts the shared code into a file for
 * every set of entries that use a piece (login loaded 24 files, 5 kB more than the same code in
 * one). `client` is what <tollgate-config> loads (the stores, the API client, the words); `core`
 * is what every element adds to it (React, Lit, the element shell and the Shoelace
 * components every screen renders: its form controls, buttons and icons; the alert of the form
 * messages and error panels loads beside the first request). Each takes the modules below and
 * everything they import that an earlier group has not taken.
 */
const CORE_COMPONENTS = ['button', 'icon', 'icon-button', 'input']
const CORE = [
  /[\\/]elements[\\/]define\.ts$/,
  /[\\/]src[\\/]ui[\\/]events\.ts$/,
  /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/,
  new RegExp(`[\\\\/]@shoelace-style[\\\\/]shoelace[\\\\/]dist[\\\\/]components[\\\\/](${CORE_COMPONENTS.join('|')})[\\\\/]`),
]
const chunkGroups = [
  { name: 'client', priority: 2, test: /[\\/]src[\\/]stores[\\/](config|session|account)\.ts$/ },
  { name: 'core', priority: 1, test: (id: string) => CORE.some((pattern) => pattern.test(id)) },
]

export default defineConfig({
  plugins: [react(), plainDynamicImport, shoelaceCss, shoelaceIcons],
  // lib code reads process.env.NODE_ENV (React, Lit); without this the bundle throws in browsers
  // and ships React's development build
  define: { 'process.env.NODE_ENV': '"production"' },
  appType: 'mpa',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // the preload helper would resolve screen chunks against the page's origin, which breaks
    // elements loaded from the gateway into another site
    modulePreload: false,
    rolldownOptions: {
      input: { ...libEntries, ...pages },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) =>
          chunk.name in libEntries ? 'lib/[name].js' : `lib/chunks/page-${chunk.name.replace(/\//g, '-')}-[hash].js`,
        chunkFileNames: 'lib/chunks/[name]-[hash].js',
        assetFileNames: 'lib/assets/[name]-[hash][extname]',
        codeSplitting: { groups: chunkGroups },
      },
    },
  },
  server: {
    proxy: { '/api': { target: process.env.TOLLGATE_API ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
})
