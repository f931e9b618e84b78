/**
 * Every story: answers from the captured fixtures, the session of the story's role, the theme of
 * the chosen background, the story's language, the clock set to the capture time, and the page
 * kept in place (navigation is cancelled and logged instead of leaving the story).
 */
import type { Decorator, Preview } from '@storybook/web-components-vite'
import { setCustomElementsManifest } from '@storybook/web-components-vite'
import manifest from '../custom-elements.json'
import { $session } from '../src/stores/session.ts'
import { $prefs } from '../src/stores/prefs.ts'
import { setClock } from '../src/stores/clock.ts'
import type { User } from '../src/api/types.ts'
import type { Role } from '../scripts/capture-fixtures.ts'
import { capturedAt, captured, installFetchShim, useFixtures, type StoryState } from './fetch-shim.ts'

setCustomElementsManifest(manifest)
installFetchShim()
setClock(() => new Date(capturedAt * 1000))
document.addEventListener('tollgate-navigate', (e) => {
  e.preventDefault()
  console.info('[story] tollgate-navigate', (e as CustomEvent<{ to: string }>).detail.to)
})

/** What a story sets in `parameters.tollgate`. */
export interface TollgateParameters {
  role: Role
  state?: StoryState
  locale?: 'en' | 'zh'
  /** the console's path (the story's address bar) */
  path?: string
}

const iframePath = location.pathname

const withTollgate: Decorator = (story, context) => {
  const { role, state = 'ok', locale = 'en', path } = context.parameters.tollgate as TollgateParameters
  useFixtures(role, state)
  const self = captured(role, 'en', '/api/user/self')
  $session.set(role !== 'signed-out' && self?.status === 200 ? ((self.body as { data: User }).data ?? null) : null)
  $prefs.setKey('theme', context.globals.backgrounds?.value === 'dark' ? 'dark' : 'light')
  $prefs.setKey('locale', locale)
  history.replaceState(null, '', (path ?? iframePath) + location.search)
  return story()
}

const preview: Preview = {
  decorators: [withTollgate],
  parameters: {
    tollgate: { role: 'signed-out' } satisfies TollgateParameters,
    controls: { expanded: true },
    backgrounds: {
      options: {
        light: { name: 'Light', value: '#ffffff' },
        dark: { name: 'Dark', value: '#1b1b1f' },
      },
    },
    viewport: {
      options: {
        mobile375: { name: '375 px phone', styles: { width: '375px', height: '812px' }, type: 'mobile' },
        desktop: { name: 'Desktop', styles: { width: '1280px', height: '800px' }, type: 'desktop' },
      },
    },
  },
  initialGlobals: { backgrounds: { value: 'light' } },
}

export default preview
