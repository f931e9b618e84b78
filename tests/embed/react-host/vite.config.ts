import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/** The React 19 host of the cross-site suite: a shop built by Vite that loads Tollgate from the gateway. */
export default defineConfig({
  root: 'tests/embed/react-host',
  base: '/react/',
  plugins: [react()],
  build: { outDir: '../.react-dist', emptyOutDir: true },
})
