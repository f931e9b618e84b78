import { useId, useState, type KeyboardEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import { toast } from '../../stores/toasts.ts'
import { addModels } from './channel-rules.ts'
import { useLabels } from '../../ui/admin/labels.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/tag/tag.js'
import '../../i18n/en/channels.ts'

interface ModelsFieldProps {
  models: string[]
  onChange: (models: string[]) => void
  /** names offered while typing */
  suggestions: readonly string[]
  /** the built-in models of the chosen type */
  typeModels: readonly string[]
  /** asks the upstream for its model list (the drawer knows key, base URL and id) */
  onFetch: () => Promise<void>
}

/** The box for custom names (comma separated, with suggestions) and its add button. */
function AddModels({ models, onChange, suggestions }: Pick<ModelsFieldProps, 'models' | 'onChange' | 'suggestions'>) {
  const t = useT()
  const L = useLabels()
  const listId = useId()
  const inputId = useId()
  const [typed, setTyped] = useState('')

  function add() {
    if (!typed.trim()) return
    const { models: next, duplicates } = addModels(models, typed)
    if (duplicates) toast.warning(t('channels.modelsExist'))
    onChange(next)
    setTyped('')
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault()
      add()
    }
  }

  return (
    <div className="tg-models__add">
      <label className="visually-hidden" htmlFor={inputId}>
        {L('channels.modelsAdd')}
      </label>
      <input
        id={inputId}
        className="tg-native-input"
        name="custom-models"
        list={listId}
        autoComplete="off"
        placeholder={L('channels.modelsAddPlaceholder')}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={onKey}
      />
      <datalist id={listId}>
        {suggestions
          .filter((s) => !models.includes(s))
          .map((s) => (
            <option key={s} value={s} />
          ))}
      </datalist>
      <sl-button size="small" data-action="add-models" onClick={add}>
        {L('channels.modelsAdd')}
      </sl-button>
    </div>
  )
}

/**
 * The models a channel serves: chips to remove, a box for custom names (comma separated, with
 * suggestions), and tools to fill in the type's models, fetch the upstream list or clear all.
 */
export function ModelsField({ models, onChange, suggestions, typeModels, onFetch }: ModelsFieldProps) {
  const L = useLabels()
  const [fetching, setFetching] = useState(false)

  async function fetchList() {
    setFetching(true)
    try {
      await onFetch()
    } finally {
      setFetching(false)
    }
  }

  return (
    <fieldset className="tg-models" data-field="models">
      <legend>
        {L('channels.field.models')} <span className="tg-models__count">({models.length})</span>
      </legend>
      <div className="tg-models__chips" data-models="">
        {models.length === 0 && <span className="tg-models__none">{L('channels.modelsNone')}</span>}
        {models.map((m) => (
          <sl-tag key={m} size="small" removable data-model={m} onsl-remove={() => onChange(models.filter((x) => x !== m))}>
            {m}
          </sl-tag>
        ))}
      </div>
      <AddModels models={models} onChange={onChange} suggestions={suggestions} />
      <div className="tg-models__tools">
        <sl-button
          size="small"
          variant="text"
          data-action="fill-type-models"
          disabled={typeModels.length === 0}
          onClick={() => onChange(addModels(models, typeModels.join(',')).models)}
        >
          {L('channels.modelsFillType')}
        </sl-button>
        <sl-button size="small" variant="text" data-action="fetch-models" loading={fetching} onClick={() => void fetchList()}>
          {L('channels.modelsFetch')}
        </sl-button>
        <sl-button size="small" variant="text" data-action="clear-models" disabled={models.length === 0} onClick={() => onChange([])}>
          {L('channels.modelsClear')}
        </sl-button>
      </div>
    </fieldset>
  )
}
