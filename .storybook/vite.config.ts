import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/** What Storybook's builder adds to its own Vite config: the React plugin the elements' screens need. */
export default defineConfig({
  plugins: [react()],
  logLevel: 'warn',
  // the preview bundles every element with React and Shoelace: a large chunk is expected here
  build: { chunkSizeWarningLimit: 2000 },
})
