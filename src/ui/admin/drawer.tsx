import { useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { problemMessage, useT, type MessageKey } from '../../i18n/t.ts'
import type { Problem } from '../../../domain/problem.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/drawer/drawer.js'

/**
 * The add/edit drawer of an administrator list (channels, users, redemption codes): open while
 * something is being edited ('new' for the add form), its form kept while it slides out after
 * closing; Escape, the overlay and the close button ask `onClose`.
 */
export function AdminDrawer<T>({
  name,
  editing,
  addLabel,
  editLabel,
  onClose,
  children,
}: {
  /** the data-drawer attribute */
  name: string
  editing: T | 'new' | null
  addLabel: string
  editLabel: string
  onClose: () => void
  /** the form of what is being edited */
  children: (shown: T | 'new') => ReactNode
}) {
  const { shown, onAfterHide } = useLingering(editing)
  return (
    <sl-drawer
      label={shown === 'new' ? addLabel : editLabel}
      open={editing !== null}
      className="tg-admin__drawer"
      part="drawer"
      data-drawer={name}
      onsl-request-close={(e: Event) => {
        if (e.target === e.currentTarget) onClose()
      }}
      onsl-after-hide={onAfterHide}
    >
      {shown !== null && children(shown)}
    </sl-drawer>
  )
}

/**
 * What a drawer shows: the value it was opened with, kept while it slides out after closing (so
 * the form does not vanish mid-animation) and dropped once it is hidden.
 */
function useLingering<T>(value: T | null): { shown: T | null; onAfterHide: (e: Event) => void } {
  const [shown, setShown] = useState<T | null>(value)
  const current = useRef(value)
  current.current = value
  if (value !== null && value !== shown) setShown(value)
  const onAfterHide = useCallback((e: Event) => {
    if (e.target === e.currentTarget && current.current === null) setShown(null)
  }, [])
  return { shown: value ?? shown, onAfterHide }
}

/** Cancel and save at the foot of an administrator drawer's form (save submits the form). */
export function DrawerActions({ busy, saveLabel, onClose }: { busy: boolean; saveLabel: string; onClose: () => void }) {
  const t = useT()
  return (
    <div className="tg-admin__form-actions">
      <sl-button data-action="close" onClick={onClose}>
        {t('common.cancel')}
      </sl-button>
      <sl-button type="submit" variant="primary" data-action="save" loading={busy}>
        {saveLabel}
      </sl-button>
    </div>
  )
}

/**
 * Submitting a drawer's form: the first problem `check` finds (or the message it names) becomes the form's message, else
 * `save` runs with the body it gave, the save button busy meanwhile.
 */
export function useSave<B>(check: () => { body: B } | { problem: Problem } | { error: MessageKey }, save: (body: B) => Promise<void>) {
  const t = useT()
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const result = check()
    if (!('body' in result)) {
      setMessage('problem' in result ? problemMessage(t, result.problem) : t(result.error))
      return
    }
    setBusy(true)
    try {
      await save(result.body)
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  return { message, busy, submit }
}
