/**
 * Storybook for the element library (`npm run storybook`, `npm run storybook:build`): one story
 * file per element in stories/, controls from custom-elements.json, answers replayed from the
 * fixtures scripts/capture-fixtures.ts captured from the real server. No addons: controls,
 * viewport and backgrounds are part of Storybook's core.
 */
import type { StorybookConfig } from '@storybook/web-components-vite'

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.ts'],
  framework: {
    name: '@storybook/web-components-vite',
    // the app's vite.config.ts builds the library entries; Storybook gets a config of its own
    options: { builder: { viteConfigPath: '.storybook/vite.config.ts' } },
  },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
}

export default config
