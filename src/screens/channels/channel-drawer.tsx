import { useEffect, useState, type FormEvent } from 'react'
import { useStore } from '@nanostores/react'
import { useLocale, useT, problemMessage } from '../../i18n/t.ts'
import * as channelsApi from '../../api/channels.ts'
import type { Channel } from '../../api/types.ts'
import { toast } from '../../stores/toasts.ts'
import { $status } from '../../stores/status.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { AdminDrawer, DrawerActions } from '../../ui/admin-drawer.tsx'
import { LoadState, type Load } from '../../ui/load-state.tsx'
import { formatQuota } from '../../ui/format.ts'
import { useLingering } from './admin-list.tsx'
import { formatDateTime } from '../../ui/datetime.ts'
import { channelBody, emptyForm, formFromChannel, type ChannelForm, addModels } from './channel-form.ts'
import { channelStatusKey, MODEL_MAPPING_TEMPLATE, otherLabel, STATUS_CODE_TEMPLATE } from './channel-types.ts'
import { canFetchModels, CHANNEL_TYPE, CHANNEL_TYPES, channelType, channelTypeName } from '../../../domain/channel-types.ts'
import { PRIORITY_MIN, WEIGHT_MIN } from '../../../domain/channel-rules.ts'
import { $allModels, $modelsByType } from './models-store.ts'
import { ModelsField } from './models-field.tsx'
import { useLabels } from './admin-labels.ts'

export type Editing = number | 'new'

export interface ChannelDrawerProps {
  /** the channel being edited, 'new' for the add form, null when closed */
  editing: Editing | null
  /** group names to offer */
  groups: readonly string[]
  onClose: () => void
  /** after a save the server confirmed: the channels created, or the one updated */
  onSaved: (result: { created?: Channel[]; updated?: Channel }) => void
}

const valueOf = (e: Event) => (e.target as HTMLInputElement).value
const checkedOf = (e: Event) => (e.target as HTMLInputElement).checked

/** The add/edit drawer of a channel (routes /channel/add and /channel/edit/{id}). */
export function ChannelDrawer({ editing, groups, onClose, onSaved }: ChannelDrawerProps) {
  const t = useT()
  const { shown, onAfterHide } = useLingering(editing)
  return (
    <AdminDrawer
      name="channel"
      label={shown === 'new' ? t('nav.channelAdd') : t('nav.channelEdit')}
      open={editing !== null}
      onClose={onClose}
      onAfterHide={onAfterHide}
    >
      {shown !== null && <ChannelEditor key={String(shown)} editing={shown} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </AdminDrawer>
  )
}

function ChannelEditor({ editing, groups, onClose, onSaved }: Omit<ChannelDrawerProps, 'editing'> & { editing: Editing }) {
  const isNew = editing === 'new'
  const [load, setLoad] = useState<Load<Channel | null>>(isNew ? { state: 'ready', data: null } : { state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [form, setForm] = useState<ChannelForm>(emptyForm)

  useEffect(() => {
    if (editing === 'new') return
    let live = true
    setLoad({ state: 'loading' })
    channelsApi.one(editing, true).then(
      (channel) => {
        if (!live) return
        setForm(formFromChannel(channel))
        setLoad({ state: 'ready', data: channel })
      },
      (error: Error) => live && setLoad({ state: 'error', error }),
    )
    return () => {
      live = false
    }
  }, [editing, attempt])

  return (
    <LoadState load={load} skeletonRows={6} onRetry={() => setAttempt((n) => n + 1)}>
      {(channel) => <EditorForm channel={channel} form={form} setForm={setForm} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </LoadState>
  )
}

interface EditorFormProps extends Omit<ChannelDrawerProps, 'editing'> {
  channel: Channel | null
  form: ChannelForm
  setForm: (change: (f: ChannelForm) => ChannelForm) => void
}

function EditorForm({ channel, form, setForm, groups, onClose, onSaved }: EditorFormProps) {
  const t = useT()
  const L = useLabels()
  const locale = useLocale()
  const isNew = channel === null
  const modelsByType = useStore($modelsByType)
  const allModels = useStore($allModels)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const typeModels = modelsByType[String(form.type)] ?? []
  const set = <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) => setForm((f) => ({ ...f, [key]: value }))

  function setType(type: number) {
    setForm((f) => {
      const next = { ...f, type }
      // image, music and video types bring their preset models when nothing is chosen yet
      if (channelType(type)?.media && f.models.length === 0) next.models = [...(modelsByType[String(type)] ?? [])]
      return next
    })
  }

  async function fetchModels() {
    if (!canFetchModels(form.type)) {
      toast.error(t('channels.error.openaiOnly'))
      return
    }
    const typedKey =
      form.key
        .split('\n')
        .map((k) => k.trim())
        .find(Boolean) ?? ''
    let ids: string[]
    if (isNew || typedKey) {
      // a key the server does not hold yet: the browser asks the upstream itself
      if (!typedKey) {
        toast.error(t('channels.error.keyFirst'))
        return
      }
      try {
        ids = await channelsApi.upstreamModels(form.base_url, typedKey)
      } catch {
        toast.error(t('channels.error.fetchFailed'))
        return
      }
    } else {
      try {
        ids = await channelsApi.fetchModels(channel.id)
      } catch {
        return
      }
    }
    setForm((f) => ({ ...f, models: addModels(f.models, ids.join(',')).models }))
    toast.success(t('channels.fetched', { n: ids.length }))
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setMessage(null)
    const result = channelBody(form, isNew)
    if ('problem' in result) {
      setMessage(problemMessage(t, result.problem))
      return
    }
    if ('error' in result) {
      setMessage(t(result.error))
      return
    }
    setBusy(true)
    try {
      if (isNew) {
        const created = await channelsApi.create(result.body)
        toast.success(t('channels.created'))
        onSaved({ created })
      } else {
        const updated = await channelsApi.update({ ...result.body, id: channel.id })
        toast.success(t('channels.updated'))
        onSaved({ updated })
      }
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(false)
    }
  }

  const keyFormat = channelType(form.type)?.keyFormat
  const keyHelp = keyFormat ? L('channels.keyFormat', { format: keyFormat }) : L('channels.keyGeneric')
  const groupOptions = [...new Set([...groups, ...form.groups])]
  const suggestions = [...new Set([...typeModels, ...allModels])]

  return (
    <form className="tg-channel-form" onSubmit={submit} noValidate data-form="channel">
      {channel && <ChannelFacts channel={channel} />}
      <sl-select
        label={L('channels.field.type')}
        name="type"
        value={String(form.type)}
        hoist
        onsl-change={(e: Event) => setType(Number(valueOf(e)))}
      >
        {CHANNEL_TYPES.map(({ type: n }) => (
          <sl-option key={n} value={String(n)}>
            {channelTypeName(n, locale)}
          </sl-option>
        ))}
      </sl-select>
      <sl-input
        label={L('channels.field.name')}
        name="name"
        required={isNew}
        placeholder={L('channels.placeholder.name')}
        value={form.name}
        onsl-input={(e: Event) => set('name', valueOf(e))}
      ></sl-input>
      {isNew && (
        <sl-switch name="batch" checked={form.batch} onsl-change={(e: Event) => set('batch', checkedOf(e))}>
          {L('channels.field.batch')}
        </sl-switch>
      )}
      {isNew && form.batch ? (
        <sl-textarea
          label={L('channels.field.keys')}
          name="key"
          rows={4}
          resize="vertical"
          placeholder={keyFormat ?? L('channels.placeholder.key')}
          help-text={`${keyHelp} ${L('channels.batchHelp')}`}
          value={form.key}
          onsl-input={(e: Event) => set('key', valueOf(e))}
        ></sl-textarea>
      ) : (
        <sl-input
          label={L('channels.field.key')}
          name="key"
          required={isNew}
          autocomplete="off"
          placeholder={isNew ? (keyFormat ?? L('channels.placeholder.key')) : L('channels.placeholder.keepKey')}
          help-text={keyHelp}
          value={form.key}
          onsl-input={(e: Event) => set('key', valueOf(e))}
        ></sl-input>
      )}
      <sl-input
        label={L('channels.field.baseUrl')}
        name="base_url"
        type="url"
        placeholder={form.type === CHANNEL_TYPE.azure ? 'https://docs-test-001.openai.azure.com' : L('channels.placeholder.baseUrl')}
        value={form.base_url}
        onsl-input={(e: Event) => set('base_url', valueOf(e))}
      ></sl-input>
      <sl-input
        label={L(otherLabel(form.type))}
        name="other"
        placeholder={channelType(form.type)?.defaultOther ?? L('channels.placeholder.other')}
        value={form.other}
        onsl-input={(e: Event) => set('other', valueOf(e))}
      ></sl-input>
      {form.type === 1 && (
        <sl-input
          label={L('channels.field.organization')}
          name="openai_organization"
          placeholder="org-…"
          value={form.openai_organization}
          onsl-input={(e: Event) => set('openai_organization', valueOf(e))}
        ></sl-input>
      )}
      <ModelsField
        models={form.models}
        onChange={(models) => set('models', models)}
        suggestions={suggestions}
        typeModels={typeModels}
        onFetch={fetchModels}
      />
      <sl-input
        label={L('channels.field.testModel')}
        name="test_model"
        placeholder={form.models[0] ?? ''}
        help-text={L('channels.testModelHelp')}
        value={form.test_model}
        onsl-input={(e: Event) => set('test_model', valueOf(e))}
      ></sl-input>
      <sl-select
        label={L('channels.field.groups')}
        name="groups"
        multiple
        clearable
        hoist
        max-options-visible="0"
        value={form.groups}
        onsl-change={(e: Event) => set('groups', [...((e.target as unknown as { value: string[] }).value ?? [])])}
      >
        {groupOptions.map((g) => (
          <sl-option key={g} value={g}>
            {g}
          </sl-option>
        ))}
      </sl-select>
      <div className="tg-channel-form__json">
        <sl-textarea
          label={L('channels.field.modelMapping')}
          name="model_mapping"
          rows={3}
          resize="vertical"
          placeholder={MODEL_MAPPING_TEMPLATE}
          help-text={L('channels.modelMappingHelp')}
          value={form.model_mapping}
          onsl-input={(e: Event) => set('model_mapping', valueOf(e))}
        ></sl-textarea>
        <sl-button
          size="small"
          variant="text"
          data-action="model-mapping-template"
          onClick={() => set('model_mapping', MODEL_MAPPING_TEMPLATE)}
        >
          {L('channels.fillTemplate')}
        </sl-button>
      </div>
      <div className="tg-channel-form__json">
        <sl-textarea
          label={L('channels.field.statusMapping')}
          name="status_code_mapping"
          rows={2}
          resize="vertical"
          placeholder={STATUS_CODE_TEMPLATE}
          help-text={L('channels.statusMappingHelp')}
          value={form.status_code_mapping}
          onsl-input={(e: Event) => set('status_code_mapping', valueOf(e))}
        ></sl-textarea>
        <sl-button
          size="small"
          variant="text"
          data-action="status-mapping-template"
          onClick={() => set('status_code_mapping', STATUS_CODE_TEMPLATE)}
        >
          {L('channels.fillTemplate')}
        </sl-button>
      </div>
      <div className="tg-channel-form__row">
        <sl-input
          label={L('channels.field.priority')}
          name="priority"
          type="number"
          min={PRIORITY_MIN}
          step="1"
          value={form.priority}
          onsl-input={(e: Event) => set('priority', valueOf(e))}
        ></sl-input>
        <sl-input
          label={L('channels.field.weight')}
          name="weight"
          type="number"
          min={WEIGHT_MIN}
          step="1"
          value={form.weight}
          onsl-input={(e: Event) => set('weight', valueOf(e))}
        ></sl-input>
        <sl-input
          label={L('channels.field.maxInputTokens')}
          name="max_input_tokens"
          type="number"
          min="0"
          step="1"
          value={form.max_input_tokens}
          onsl-input={(e: Event) => set('max_input_tokens', valueOf(e))}
        ></sl-input>
      </div>
      <sl-switch
        name="auto_ban"
        checked={form.auto_ban}
        help-text={L('channels.autoBanHelp')}
        onsl-change={(e: Event) => set('auto_ban', checkedOf(e))}
      >
        {L('channels.field.autoBan')}
      </sl-switch>
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}

/** What the server measured about a channel: shown, never edited. */
function ChannelFacts({ channel }: { channel: Channel }) {
  const L = useLabels()
  const locale = useLocale()
  const status = useStore($status)
  return (
    <dl className="tg-facts" data-facts="">
      <div>
        <dt>ID</dt>
        <dd>{channel.id}</dd>
      </div>
      <div>
        <dt>{L('channels.col.status')}</dt>
        <dd>{L(channelStatusKey(channel.status))}</dd>
      </div>
      <div>
        <dt>{L('channels.col.responseTime')}</dt>
        <dd>{channel.response_time ? `${(channel.response_time / 1000).toFixed(2)} s` : L('channels.untested')}</dd>
      </div>
      <div>
        <dt>{L('channels.col.balance')}</dt>
        <dd>${(channel.balance ?? 0).toFixed(2)}</dd>
      </div>
      <div>
        <dt>{L('channels.col.usedQuota')}</dt>
        <dd>{formatQuota(channel.used_quota ?? 0, status)}</dd>
      </div>
      <div>
        <dt>{L('channels.created_time')}</dt>
        <dd>{formatDateTime(channel.created_time, locale)}</dd>
      </div>
      <div>
        <dt>{L('channels.test_time')}</dt>
        <dd>{formatDateTime(channel.test_time, locale)}</dd>
      </div>
      <div>
        <dt>{L('channels.balance_updated_time')}</dt>
        <dd>{formatDateTime(channel.balance_updated_time, locale)}</dd>
      </div>
    </dl>
  )
}
