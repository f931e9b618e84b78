import { useCallback, useEffect, useState } from 'react'
import { useStore } from '@nanostores/react'
import { useT } from '../../i18n/t.ts'
import * as channelsApi from '../../api/channels.ts'
import * as usersApi from '../../api/users.ts'
import type { ChannelSearch } from '../../api/channels.ts'
import type { Channel } from '../../api/types.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import { useNavigate } from '../../ui/navigation.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { LoadState } from '../../ui/load-state.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { useRowSelection } from '../../ui/row-selection.tsx'
import { AdminGate, LoadMore, useConfirm, usePagedList } from './admin-list.tsx'
import { copyBody } from './channel-form.ts'
import { boundedNumber, PRIORITY_MIN, WEIGHT_MIN } from '../../../domain/channel-rules.ts'
import { ChannelDrawer, type Editing } from './channel-drawer.tsx'
import { ChannelSearchForm, isEmptySearch } from './channel-search.tsx'
import { ChannelsTable, type ChannelActions } from './channels-table.tsx'
import { refreshModels } from './models-store.ts'
import adminCss from './admin.css?inline'
import { useLabels } from './admin-labels.ts'
import { CHANNEL_STATUS } from '../../../domain/statuses.ts'

export interface ChannelsScreenProps {
  /** the drawer the route asks for: a channel id, 'new' (/channel/add) or none (/channel) */
  edit?: Editing | null
  /**
   * the console's router drives the drawer: opening and closing it changes the path; without
   * it (an element on any page) the drawer is local state
   */
  routed?: boolean
}

/** Channel management (/channel, /channel/add, /channel/edit/{id}), for administrators. */
export function ChannelsScreen(props: ChannelsScreenProps) {
  return (
    <div className="tg-admin" data-screen="channels">
      <style>{adminCss}</style>
      <AdminGate>
        <ChannelsManager {...props} />
      </AdminGate>
    </div>
  )
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

function ChannelsManager({ edit = null, routed = false }: ChannelsScreenProps) {
  const t = useT()
  const L = useLabels()
  const navigate = useNavigate()
  const prefs = useStore($prefs, { keys: ['page-size', 'id-sort'] })
  const pageSize = PAGE_SIZES.includes(prefs['page-size'] as (typeof PAGE_SIZES)[number]) ? prefs['page-size'] : PAGE_SIZES[0]
  const idSort = !!prefs['id-sort']
  const list = usePagedList<Channel>((p) => channelsApi.list(p, pageSize, idSort), pageSize, idSort)
  const { setRows, reload } = list
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const [localEdit, setLocalEdit] = useState<Editing | null>(null)
  const [groups, setGroups] = useState<string[]>([])
  const { confirm, dialog } = useConfirm()
  const editing = routed ? edit : localEdit

  useEffect(() => {
    usersApi.groups().then(setGroups, () => {})
    void refreshModels()
  }, [])

  const rows = list.load.state === 'ready' ? list.load.data : []
  const selection = useRowSelection(rows)
  const { selected } = selection

  const replaceRow = useCallback((c: Channel) => setRows((all) => all.map((r) => (r.id === c.id ? { ...r, ...c } : r))), [setRows])

  async function withPending(tag: string, fn: () => Promise<void>) {
    setPending((p) => new Set(p).add(tag))
    try {
      await fn()
    } catch {
      // the API client has shown the server's message
    } finally {
      setPending((p) => {
        const next = new Set(p)
        next.delete(tag)
        return next
      })
    }
  }

  const openEditor = (target: Editing) =>
    routed ? navigate(target === 'new' ? '/channel/add' : `/channel/edit/${target}`) : setLocalEdit(target)
  const closeEditor = () => (routed ? navigate('/channel') : setLocalEdit(null))

  const actions: ChannelActions = {
    test: (c, model) =>
      void withPending(`${c.id}:test`, async () => {
        const seconds = await channelsApi.test(c.id, model)
        setRows((all) => all.map((r) => (r.id === c.id ? { ...r, response_time: Math.round(seconds * 1000), test_time: nowSeconds() } : r)))
        toast.success(t('channels.tested', { name: c.name, seconds: seconds.toFixed(2) }))
      }),
    toggle: (c) =>
      void withPending(`${c.id}:status`, async () => {
        replaceRow(
          await channelsApi.update({
            id: c.id,
            status: c.status === CHANNEL_STATUS.enabled ? CHANNEL_STATUS.manuallyDisabled : CHANNEL_STATUS.enabled,
          }),
        )
        toast.success(t('admin.done'))
      }),
    edit: (c) => openEditor(c.id),
    copy: (c) =>
      void withPending(`${c.id}:copy`, async () => {
        let full: Channel
        try {
          full = await channelsApi.one(c.id, true)
        } catch {
          toast.error(t('channels.error.copyFailed'))
          return
        }
        try {
          await channelsApi.create(copyBody(full, L('channels.copySuffix')))
        } catch {
          toast.error(t('channels.error.copyFailed'))
          return
        }
        toast.success(t('channels.copied'))
        await reload()
      }),
    remove: (c) =>
      void (async () => {
        const ok = await confirm({ title: L('channels.confirmDelete', { name: c.name }), confirmLabel: L('admin.delete'), danger: true })
        if (!ok) return
        await withPending(`${c.id}:delete`, async () => {
          await channelsApi.remove(c.id)
          setRows((all) => all.filter((r) => r.id !== c.id))
          selection.drop(c.id)
          toast.success(t('admin.done'))
        })
      })(),
    updateBalance: (c) =>
      void withPending(`${c.id}:balance`, async () => {
        const balance = await channelsApi.updateBalance(c.id)
        setRows((all) => all.map((r) => (r.id === c.id ? { ...r, balance, balance_updated_time: nowSeconds() } : r)))
        toast.info(t('channels.balanceUpdated'))
      }),
    setNumber: (c, field, raw, input) => {
      const value = boundedNumber(raw, field === 'priority' ? PRIORITY_MIN : WEIGHT_MIN)
      // an empty box is ignored: the stored value comes back
      if (value === null || value === c[field]) {
        input.value = String(value ?? c[field])
        return
      }
      void withPending(`${c.id}:${field}`, async () => {
        try {
          replaceRow(await channelsApi.update({ id: c.id, [field]: value }))
          toast.success(t('admin.done'))
        } catch (e) {
          input.value = String(c[field])
          throw e
        }
      })
    },
  }

  function search(q: ChannelSearch) {
    selection.clear()
    if (isEmptySearch(q)) void reload()
    else void list.showSearch(() => channelsApi.search(q, idSort))
  }

  async function testAll() {
    try {
      await channelsApi.testAll()
      toast.info(t('channels.testAllStarted'))
    } catch {
      // shown by the API client
    }
  }

  async function updateAllBalances() {
    await withPending('all:balance', async () => {
      await channelsApi.updateAllBalances()
      toast.info(t('channels.balancesUpdated'))
      await reload()
    })
  }

  async function deleteSelected() {
    if (selected.size === 0) {
      toast.error(t('channels.error.selectFirst'))
      return
    }
    const ids = [...selected]
    const ok = await confirm({
      title: L('channels.confirmDeleteSelected', { n: ids.length }),
      confirmLabel: L('admin.delete'),
      danger: true,
    })
    if (!ok) return
    await withPending('all:batch', async () => {
      const n = await channelsApi.removeMany(ids)
      setRows((all) => all.filter((r) => !ids.includes(r.id)))
      selection.clear()
      toast.success(t('channels.deletedMany', { n }))
    })
  }

  async function deleteDisabled() {
    const ok = await confirm({ title: L('channels.confirmDeleteDisabled'), confirmLabel: L('admin.delete'), danger: true })
    if (!ok) return
    await withPending('all:disabled', async () => {
      const n = await channelsApi.removeDisabled()
      toast.success(t('channels.deletedDisabled', { n }))
      selection.clear()
      await reload()
    })
  }

  async function checkAccounts(act: channelsApi.AccountCheck) {
    await withPending(`all:${act}`, async () => {
      const r = await channelsApi.checkAccounts(act)
      toast.info(L('channels.checked', { checked: r.checked, disabled: r.disabled, enabled: r.enabled }))
      await reload()
    })
  }

  async function fix() {
    await withPending('all:fix', async () => {
      const n = await channelsApi.fix()
      toast.success(t('channels.fixed', { n }))
      await reload()
    })
  }

  function onSaved(result: { created?: Channel[]; updated?: Channel }) {
    if (result.updated) replaceRow(result.updated)
    closeEditor()
    if (result.created) void reload()
  }

  return (
    <>
      <PageHeader
        title={t('nav.channel')}
        description={L('channels.description')}
        actions={
          <sl-button variant="primary" data-action="add" onClick={() => openEditor('new')}>
            <sl-icon slot="prefix" name="plus-lg"></sl-icon>
            {t('nav.channelAdd')}
          </sl-button>
        }
      />
      <ChannelSearchForm groups={groups} onSearch={search} />
      <div className="tg-admin__toolbar" role="toolbar" aria-label={L('channels.tools')}>
        <sl-button
          size="small"
          variant="danger"
          outline
          data-action="delete-selected"
          loading={pending.has('all:batch')}
          onClick={() => void deleteSelected()}
        >
          <sl-icon slot="prefix" name="trash3"></sl-icon>
          {L('channels.deleteSelected', { n: selected.size })}
        </sl-button>
        <span className="tg-admin__spacer"></span>
        <sl-button size="small" data-action="test-all" onClick={() => void testAll()}>
          <sl-icon slot="prefix" name="lightning-charge"></sl-icon>
          {L('channels.testAll')}
        </sl-button>
        <sl-button
          size="small"
          data-action="update-all-balances"
          loading={pending.has('all:balance')}
          onClick={() => void updateAllBalances()}
        >
          {L('channels.updateAllBalances')}
        </sl-button>
        <sl-dropdown hoist placement="bottom-end">
          <sl-button
            slot="trigger"
            size="small"
            caret
            data-action="more-tools"
            loading={[...pending].some((p) => p.startsWith('all:') && p !== 'all:batch' && p !== 'all:balance')}
          >
            {L('channels.moreTools')}
          </sl-button>
          <sl-menu
            onsl-select={(e: CustomEvent<{ item: { value: string } }>) => {
              const tool = e.detail.item.value
              if (tool === 'delete-disabled') void deleteDisabled()
              if (tool === 'check-viggle') void checkAccounts('check_viggle')
              if (tool === 'check-suno') void checkAccounts('check_suno')
              if (tool === 'fix') void fix()
            }}
          >
            <sl-menu-item value="delete-disabled" data-action="delete-disabled">
              <sl-icon slot="prefix" name="trash3"></sl-icon>
              {L('channels.deleteDisabled')}
            </sl-menu-item>
            <sl-menu-item value="check-viggle" data-action="check-viggle">
              {L('channels.checkViggle')}
            </sl-menu-item>
            <sl-menu-item value="check-suno" data-action="check-suno">
              {L('channels.checkSuno')}
            </sl-menu-item>
            <sl-menu-item value="fix" data-action="fix">
              <sl-icon slot="prefix" name="wrench-adjustable"></sl-icon>
              {L('channels.fix')}
            </sl-menu-item>
          </sl-menu>
        </sl-dropdown>
      </div>
      <LoadState
        load={list.load}
        skeletonRows={5}
        onRetry={() => void reload()}
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState icon="hdd-network" title={list.searching ? L('channels.noMatch') : L('channels.empty')}>
            {list.searching ? L('admin.noMatchBody') : L('channels.emptyBody')}
          </EmptyState>
        }
      >
        {(data) => <ChannelsTable rows={data} selection={selection} actions={actions} pending={pending} />}
      </LoadState>
      <div className="tg-admin__footer">
        <LoadMore list={list} />
        <span className="tg-admin__spacer"></span>
        <sl-switch
          size="small"
          name="id-sort"
          checked={idSort}
          onsl-change={(e: Event) => $prefs.setKey('id-sort', (e.target as HTMLInputElement).checked)}
        >
          {L('channels.idSort')}
        </sl-switch>
        <sl-select
          size="small"
          name="page-size"
          hoist
          className="tg-admin__page-size"
          aria-label={L('admin.pageSize')}
          value={String(pageSize)}
          onsl-change={(e: Event) => $prefs.setKey('page-size', Number((e.target as HTMLInputElement).value))}
        >
          {PAGE_SIZES.map((n) => (
            <sl-option key={n} value={String(n)}>
              {L('admin.perPage', { n })}
            </sl-option>
          ))}
        </sl-select>
      </div>
      <ChannelDrawer editing={editing} groups={groups} onClose={closeEditor} onSaved={onSaved} />
      {dialog}
    </>
  )
}
