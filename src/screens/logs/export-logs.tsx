import { useLogLabels } from './logs-labels.ts'
import { exportLogs } from '../../stores/logs.ts'
import { ExportButton } from './export-button.tsx'

/** The usage log's export: the rows of the filters applied (GET /api/log/export, users /api/log/self/export). */
export function ExportLogs() {
  const t = useLogLabels()
  return (
    <ExportButton
      download={exportLogs}
      action="export-logs"
      words={{
        open: t('logs.export.open'),
        progress: (size) => t('logs.export.progress', { size }),
        done: (name, size) => t('logs.export.done', { name, size }),
      }}
    />
  )
}
