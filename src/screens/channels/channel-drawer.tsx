import { useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import type { Channel } from '../../api/types.ts'
import { toast } from '../../stores/toasts.ts'
import { createChannels, fetchChannelModels, loadChannel, saveChannel } from '../../stores/channels.ts'
import { $allModels, $modelsByType } from '../../stores/channel-models.ts'
import { FormMessage } from '../../ui/auth-card.tsx'
import { AdminDrawer, DrawerActions, useSave } from '../../ui/admin/drawer.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { useLoad } from '../../ui/use-load.ts'
import { useLabels } from '../../ui/admin/labels.ts'
import { addModels, channelBody, emptyForm, formFromChannel, type ChannelForm } from './channel-rules.ts'
import { canFetchModels, channelType } from '../../../domain/channel-types.ts'
import { ChannelFacts, ConnectionFields, RoutingFields } from './channel-fields.tsx'
import { ModelsField } from './models-field.tsx'
import '../../i18n/en/channels.ts'

export type Editing = number | 'new'

interface ChannelDrawerProps {
  /** the channel being edited, 'new' for the add form, null when closed */
  editing: Editing | null
  /** group names to offer */
  groups: readonly string[]
  onClose: () => void
  /** after a save the server confirmed: the channels created, or the one updated */
  onSaved: (result: { created?: Channel[]; updated?: Channel }) => void
}

/** The add/edit drawer of a channel (routes /channel/add and /channel/edit/{id}). */
export function ChannelDrawer({ editing, groups, onClose, onSaved }: ChannelDrawerProps) {
  const t = useT()
  return (
    <AdminDrawer name="channel" editing={editing} addLabel={t('nav.channelAdd')} editLabel={t('nav.channelEdit')} onClose={onClose}>
      {(shown) => <ChannelEditor key={String(shown)} editing={shown} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </AdminDrawer>
  )
}

function ChannelEditor({ editing, groups, onClose, onSaved }: Omit<ChannelDrawerProps, 'editing'> & { editing: Editing }) {
  const [form, setForm] = useState<ChannelForm>(emptyForm)
  const { load, retry } = useLoad<Channel | null>(
    editing === 'new'
      ? null
      : () =>
          loadChannel(editing).then((channel) => {
            setForm(formFromChannel(channel))
            return channel
          }),
    editing,
    editing === 'new' ? { state: 'ready', data: null } : { state: 'loading' },
  )

  return (
    <LoadState load={load} skeletonRows={6} onRetry={retry}>
      {(channel) => <EditorForm channel={channel} form={form} setForm={setForm} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </LoadState>
  )
}

interface EditorFormProps extends Omit<ChannelDrawerProps, 'editing'> {
  channel: Channel | null
  form: ChannelForm
  setForm: (change: (f: ChannelForm) => ChannelForm) => void
}

/** "Fetch models": the upstream's model ids (through the server, or from the browser for a key not saved yet) added to the form's. */
function useFetchModels({ channel, form, setForm }: Pick<EditorFormProps, 'channel' | 'form' | 'setForm'>) {
  const t = useT()
  return async function fetchModels() {
    if (!canFetchModels(form.type)) {
      toast.error(t('channels.error.openaiOnly'))
      return
    }
    const typedKey =
      form.key
        .split('\n')
        .map((k) => k.trim())
        .find(Boolean) ?? ''
    // a key the server does not hold yet: the browser asks the upstream itself
    if (channel === null && !typedKey) return void toast.error(t('channels.error.keyFirst'))
    let ids: string[]
    try {
      ids = await fetchChannelModels(channel?.id ?? null, form.base_url, typedKey)
    } catch {
      // the server's refusal was shown by the API client; the browser's own call needs saying
      if (typedKey) toast.error(t('channels.error.fetchFailed'))
      return
    }
    setForm((f) => ({ ...f, models: addModels(f.models, ids.join(',')).models }))
    toast.success(t('channels.fetched', { n: ids.length }))
  }
}

/** Saving the form: the checks, then a create (one channel per key in batch mode) or an update. */
function useChannelSave({ channel, form, onSaved }: Pick<EditorFormProps, 'channel' | 'form' | 'onSaved'>) {
  const t = useT()
  return useSave(
    () => channelBody(form, channel === null),
    async (body) => {
      if (channel === null) {
        const created = await createChannels(body)
        toast.success(t('channels.created', { n: created.length }))
        onSaved({ created })
      } else {
        const updated = await saveChannel(channel.id, body)
        toast.success(t('channels.updated'))
        onSaved({ updated })
      }
    },
  )
}

function EditorForm({ channel, form, setForm, groups, onClose, onSaved }: EditorFormProps) {
  const L = useLabels()
  const isNew = channel === null
  const modelsByType = useStore($modelsByType)
  const allModels = useStore($allModels)
  const fetchModels = useFetchModels({ channel, form, setForm })
  const { message, busy, submit } = useChannelSave({ channel, form, onSaved })
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

  const suggestions = [...new Set([...typeModels, ...allModels])]

  return (
    <form className="tg-channel-form" onSubmit={submit} noValidate data-form="channel">
      {channel && <ChannelFacts channel={channel} />}
      <ConnectionFields form={form} set={set} isNew={isNew} setType={setType} />
      <ModelsField
        models={form.models}
        onChange={(models) => set('models', models)}
        suggestions={suggestions}
        typeModels={typeModels}
        onFetch={fetchModels}
      />
      <RoutingFields form={form} set={set} groups={groups} />
      {message && <FormMessage variant="danger">{message}</FormMessage>}
      <DrawerActions busy={busy} saveLabel={L('admin.save')} onClose={onClose} />
    </form>
  )
}
