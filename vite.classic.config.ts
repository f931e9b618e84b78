import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { shoelaceCss } from './vite.config.ts'

/**
 * The classic build: dist/lib/tollgate.classic.js, one self-contained IIFE (no import, no chunk)
 * for pages that allow only `<script src>`. It registers every element and sets window.Tollgate.
 * Runs after the module build (`npm run build`), into the same dist/ without emptying it.
 */
export default defineConfig({
  plugins: [react(), shoelaceCss],
  // import.meta does not exist in a classic script: the library finds its gateway from
  // document.currentScript there (src/stores/config.ts)
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': 'undefined' },
  build: {
    outDir: 'dist/lib',
    emptyOutDir: false,
    sourcemap: false,
    target: 'es2022',
    modulePreload: false,
    // one file on purpose: every screen, the charts included (about 1 MB, 230 kB brotli)
    chunkSizeWarningLimit: 1100,
    lib: { entry: 'elements/classic.ts', formats: ['iife'], name: 'TollgateClassic', fileName: () => 'tollgate.classic.js' },
    rolldownOptions: { output: { codeSplitting: false } },
  },
})
