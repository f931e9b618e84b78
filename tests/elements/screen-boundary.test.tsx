import { expect } from '@esm-bundle/chai'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { ScreenBoundary } from '../../src/ui/screen-boundary.tsx'
import { waitFor } from './helpers.ts'

function Broken(): never {
  throw new Error('chunk gone')
}

describe('ScreenBoundary', () => {
  it('keeps a failing screen inside its panel and clears when the route changes', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    const quiet = console.error
    console.error = () => {}
    try {
      flushSync(() =>
        root.render(
          <ScreenBoundary resetKey="/a">
            <Broken />
          </ScreenBoundary>,
        ),
      )
      await waitFor(() => host.querySelector('[data-screen-failed]'), 'the failure panel')
      expect(host.textContent).to.include('This page could not be loaded')
      flushSync(() =>
        root.render(
          <ScreenBoundary resetKey="/b">
            <p>fine</p>
          </ScreenBoundary>,
        ),
      )
      await waitFor(() => host.textContent?.includes('fine'), 'the next screen')
      expect(host.querySelector('[data-screen-failed]')).to.equal(null)
    } finally {
      console.error = quiet
      root.unmount()
      host.remove()
    }
  })
})
