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
 * Two chunks hold what elements share, each one file: a page pays gzip's start-up and loses its
 * cross-references once per file, and left alone the bundler cuts the shared code into a file for
 * every set of entries that use a piece (login loaded 24 files, 5 kB more than the same code in
 * one). `client` is what <tollgate-config> loads (the stores, the API client, the words); `core`
 * is what every element adds to it (React, Lit, the element shell and the Shoelace
 * components every screen renders: its form controls, messages and toasts). Each takes the
 * modules below and everything they import that an earlier group has not taken.
 */
const CORE_COMPONENTS = ['alert', 'button', 'icon', 'icon-button', 'input']
const CORE = [
  /[\\/]elements[\\/]define\.ts$/,
  /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/,
  new RegExp(`[\\\\/]@shoelace-style[\\\\/]shoelace[\\\\/]dist[\\\\/]components[\\\\/](${CORE_COMPONENTS.join('|')})[\\\\/]`),
]
const chunkGroups = [
  { name: 'client', priority: 2, test: /[\\/]src[\\/]stores[\\/](config|session|account)\.ts$/ },
  { name: 'core', priority: 1, test: (id: string) => CORE.some((pattern) => pattern.test(id)) },
]

export default defineConfig({
  plugins: [react(), plainDynamicImport, shoelaceCss],
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
