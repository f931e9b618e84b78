import { useEffect, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import { loadGroups } from '../../stores/users.ts'
import * as channels from '../../stores/channels.ts'
import { channelList, type ChannelSearch } from '../../stores/channels.ts'
import { usePagedList } from '../../stores/paged-list.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { $isAdmin } from '../../stores/session.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useRowSelection } from '../../ui/admin/row-selection.tsx'
import { AddButton, AdminRows, AdminScreen, useConfirm, usePending } from '../../ui/admin/list.tsx'
import { ChannelDrawer, type Editing } from './channel-drawer.tsx'
import { ChannelSearchForm, isEmptySearch } from './channel-search.tsx'
import { ChannelsTable } from './channels-table.tsx'
import { refreshModels } from '../../stores/channel-models.ts'
import { useLabels } from '../../ui/admin/labels.ts'
import { ChannelListSettings, ChannelToolbar, useChannelRowActions, useChannelTools } from './channel-tools.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '../../ui/icons/hdd-network.ts'
import '../../ui/icons/plus-lg.ts'
import '../../i18n/en/channels.ts'

interface ChannelsScreenProps {
  /** the drawer the route asks for: a channel id, 'new' (/channel/add) or none (/channel) */
  edit?: Editing | null
  /**
   * the console's router drives the drawer: opening and closing it changes the path; without
   * it (an element on any page) the drawer is local state
   */
  routed?: boolean
}

/** The list config of the channels screen: the stored page size and ID sort. */
function listConfig(prefs: { 'page-size': number; 'id-sort': boolean }) {
  const pageSize = PAGE_SIZES.includes(prefs['page-size'] as (typeof PAGE_SIZES)[number]) ? prefs['page-size'] : PAGE_SIZES[0]
  return { pageSize, filters: { idSort: !!prefs['id-sort'] } }
}

/** Starts an administrator's first page of channels as soon as this screen's code arrives (see routes.tsx). */
export function prefetch(): void {
  if ($isAdmin.get()) channelList.prime(listConfig($prefs.get()))
}

/** Channel management (/channel, /channel/add, /channel/edit/{id}), for administrators. */
export function ChannelsScreen(props: ChannelsScreenProps) {
  return (
    <AdminScreen name="channels">
      <ChannelsManager {...props} />
    </AdminScreen>
  )
}

function ChannelsManager({ edit = null, routed = false }: ChannelsScreenProps) {
  const t = useT()
  const L = useLabels()
  const navigate = useNavigate()
  const prefs = useStore($prefs, { keys: ['page-size', 'id-sort'] })
  const config = listConfig(prefs)
  const {
    pageSize,
    filters: { idSort },
  } = config
  const list = usePagedList(channelList, config)
  const { pending, withPending } = usePending()
  const [localEdit, setLocalEdit] = useState<Editing | null>(null)
  const [groups, setGroups] = useState<string[]>([])
  const { confirm, dialog } = useConfirm()
  const editing = routed ? edit : localEdit

  useEffect(() => {
    void loadGroups().then(setGroups)
    void refreshModels()
  }, [])

  const rows = list.load.state === 'ready' ? list.load.data : []
  const selection = useRowSelection(rows)
  const tools = useChannelTools({ confirm, withPending, selection })

  const openEditor = (target: Editing) =>
    routed ? navigate(target === 'new' ? '/channel/add' : `/channel/edit/${target}`) : setLocalEdit(target)
  const closeEditor = () => (routed ? navigate('/channel') : setLocalEdit(null))

  const actions = useChannelRowActions({ confirm, withPending, selection, onEdit: (c) => openEditor(c.id) })

  function search(q: ChannelSearch) {
    selection.clear()
    void channels.searchChannels(q, isEmptySearch(q))
  }

  return (
    <>
      <PageHeader
        title={t('nav.channel')}
        description={L('channels.description')}
        actions={<AddButton icon="plus-lg" label={t('nav.channelAdd')} onClick={() => openEditor('new')} />}
      />
      <ChannelSearchForm groups={groups} onSearch={search} />
      <ChannelToolbar tools={tools} pending={pending} selected={selection.selected.size} />
      <AdminRows
        list={list}
        icon="hdd-network"
        empty={{ title: L('channels.empty'), body: L('channels.emptyBody') }}
        noMatch={L('channels.noMatch')}
        footer={<ChannelListSettings idSort={idSort} pageSize={pageSize} />}
      >
        {(data) => <ChannelsTable rows={data} selection={selection} actions={actions} pending={pending} />}
      </AdminRows>
      <ChannelDrawer editing={editing} groups={groups} onClose={closeEditor} onSaved={closeEditor} />
      {dialog}
    </>
  )
}
