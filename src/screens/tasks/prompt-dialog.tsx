import type { CSSProperties } from 'react'
import { useTaskLabels } from './tasks-labels.ts'
import type { TaskRecord } from '../../api/types.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '../../ui/icons/clipboard.ts'

/** The whole prompt of a task (and its English version, lyrics or description) with copy buttons. */
export function PromptDialog({ task, onClose, onCopy }: { task: TaskRecord | null; onClose: () => void; onCopy: (text: string) => void }) {
  const t = useTaskLabels()
  const parts = task
    ? (
        [
          ['tasks.prompt', task.prompt],
          ['tasks.promptEn', task.prompt_en],
          ['tasks.text', task.text],
          ['tasks.descriptionField', task.description ?? ''],
        ] as const
      ).filter(([, text]) => !!text)
    : []
  return (
    <sl-dialog
      label={t('tasks.promptTitle')}
      open={task !== null}
      data-dialog="prompt"
      onsl-after-hide={(e: Event) => e.target === e.currentTarget && onClose()}
      style={{ '--width': '40rem' } as CSSProperties}
    >
      {parts.map(([key, text]) => (
        <section key={key} className="tg-prompt">
          <header>
            <strong>{t(key)}</strong>
            <sl-button size="small" variant="text" onClick={() => onCopy(text)}>
              <sl-icon slot="prefix" name="clipboard"></sl-icon>
              {t('common.copy')}
            </sl-button>
          </header>
          <p className="tg-prompt__text" data-prompt-text={key}>
            {text}
          </p>
        </section>
      ))}
      <sl-button slot="footer" onClick={onClose}>
        {t('common.close')}
      </sl-button>
    </sl-dialog>
  )
}
