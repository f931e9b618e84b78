// What the CSV export element tests share (logs-export, tasks-export): catching the download and
// reading the file the export saved.
import { expect } from '@esm-bundle/chai'
import { $, waitFor } from './helpers.ts'

/** Catches the download link the export clicks (the browser never saves): its name and its file's URL. */
export function catchDownload(): { get: () => { name: string; href: string } | null; stop: () => void } {
  let caught: { name: string; href: string } | null = null
  const onClick = (e: Event) => {
    const a = e.target as HTMLAnchorElement
    if (a instanceof HTMLAnchorElement && a.download) {
      e.preventDefault()
      caught = { name: a.download, href: a.href }
    }
  }
  document.addEventListener('click', onClick, true)
  return { get: () => caught, stop: () => document.removeEventListener('click', onClick, true) }
}

/**
 * Clicks the export button `[data-action="<action>"]` and waits for the export to finish, checking
 * that it showed as running and that the saved file's name and byte count are shown; answers the
 * file's name, its text and its CSV lines.
 */
export async function exportFile(el: HTMLElement, action: string): Promise<{ name: string; text: string; lines: string[] }> {
  const box = $(el, '[data-export]')!
  const phases: string[] = []
  const watch = new MutationObserver(() => phases.push(box.dataset.export!))
  watch.observe(box, { attributes: true, subtree: true, childList: true })
  const link = catchDownload()
  try {
    $<HTMLElement>(el, `[data-action="${action}"]`)!.click()
    await waitFor(() => box.dataset.export === 'done' && link.get(), 'the export to finish')
  } finally {
    link.stop()
    watch.disconnect()
  }
  expect(phases).to.include('running')
  const { name, href } = link.get()!
  const file = new Uint8Array(await (await fetch(href)).arrayBuffer())
  const shown = $(el, '[data-export-bytes]')!
  expect(Number(shown.dataset.exportBytes)).to.equal(file.length)
  expect(shown.textContent).to.include(`Saved ${name}`)
  const text = new TextDecoder().decode(file)
  return { name, text, lines: text.trimEnd().split('\r\n') }
}
