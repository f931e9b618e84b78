import { useState } from 'react'
import { byteSize } from '../../ui/format.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'

/** Hands a file to the browser's downloads (a link with `download`, clicked once). */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.hidden = true
  document.body.append(a)
  a.click()
  a.remove()
  // the download has its own copy once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

type ExportState = { phase: 'idle' } | { phase: 'running'; bytes: number } | { phase: 'done'; bytes: number; name: string }

/** What the button says: its label, and the line beside it while downloading and once saved. */
export interface ExportWords {
  open: string
  progress: (size: string) => string
  done: (name: string, size: string) => string
}

/**
 * "Export CSV": downloads a file the server streams (`download`), showing the bytes received
 * meanwhile, then hands it to the browser's downloads. The log and the task lists share it.
 */
export function ExportButton({
  download,
  words,
  action,
}: {
  download: (onProgress: (bytes: number) => void) => Promise<{ blob: Blob; name: string; bytes: number }>
  words: ExportWords
  action: string
}) {
  const [state, setState] = useState<ExportState>({ phase: 'idle' })

  async function run() {
    setState({ phase: 'running', bytes: 0 })
    try {
      const file = await download((bytes) => setState({ phase: 'running', bytes }))
      saveFile(file.blob, file.name)
      setState({ phase: 'done', bytes: file.bytes, name: file.name })
    } catch {
      // the client has told the user (toast) already
      setState({ phase: 'idle' })
    }
  }

  return (
    <div className="tg-export" data-export={state.phase}>
      <sl-button variant="default" size="small" onClick={() => void run()} loading={state.phase === 'running'} data-action={action}>
        {words.open}
      </sl-button>
      <span
        className="tg-muted tg-small"
        role="status"
        aria-live="polite"
        data-export-bytes={state.phase === 'idle' ? undefined : state.bytes}
      >
        {state.phase === 'running' && (
          <>
            <progress className="tg-export__progress" aria-label={words.open}></progress>
            {words.progress(byteSize(state.bytes))}
          </>
        )}
        {state.phase === 'done' && words.done(state.name, byteSize(state.bytes))}
      </span>
    </div>
  )
}
