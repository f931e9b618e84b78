/** Types of @remcovaes/web-test-runner-vite-plugin, which ships none. */
declare module '@remcovaes/web-test-runner-vite-plugin' {
  import type { UserConfig } from 'vite'
  import type { TestRunnerPlugin } from '@web/test-runner'
  export function vitePlugin(config?: UserConfig): TestRunnerPlugin
  export function removeViteLogging(log: { type: string; args: unknown[] }): boolean
}
