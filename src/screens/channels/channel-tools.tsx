import { useLocale, useT } from '../../i18n/t.ts'
import * as channels from '../../stores/channels.ts'
import type { AccountCheck } from '../../stores/channels.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { toast } from '../../stores/toasts.ts'
import type { useConfirm, usePending } from '../../ui/admin/list.tsx'
import type { useRowSelection } from '../../ui/admin/row-selection.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import type { Channel } from '../../api/types.ts'
import { copyBody } from './channel-rules.ts'
import type { ChannelActions } from './channels-table.tsx'
import { boundedNumber, PRIORITY_MIN, WEIGHT_MIN } from '../../../domain/channel-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/dropdown/dropdown.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/menu/menu.js'
import '@shoelace-style/shoelace/dist/components/menu-item/menu-item.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '../../ui/icons/lightning-charge.ts'
import '../../ui/icons/trash3.ts'
import '../../ui/icons/wrench-adjustable.ts'
import '../../i18n/en/channels.ts'

/** What a batch delete will delete: each selected channel's id and name (the id alone for one no longer listed). */
function DeletionList({ ids }: { ids: readonly number[] }) {
  const byId = new Map(channels.channelList.$state.get().items.map((c) => [c.id, c]))
  return (
    <ul className="tg-admin__deletion-list" data-deletion-list="">
      {ids.map((id) => (
        <li key={id} data-id={id}>
          #{id} {byId.get(id)?.name ?? ''}
        </li>
      ))}
    </ul>
  )
}

/** The channel-wide operations, with their confirmations, busy states and outcomes. */
export function useChannelTools({
  confirm,
  withPending,
  selection,
}: {
  confirm: ReturnType<typeof useConfirm>['confirm']
  withPending: ReturnType<typeof usePending>['withPending']
  selection: ReturnType<typeof useRowSelection>
}) {
  const t = useT()
  const L = useLabels()
  async function testAll() {
    try {
      await channels.testAllChannels()
      toast.info(t('channels.testAllStarted'))
    } catch {
      // shown by the API client
    }
  }

  async function updateAllBalances() {
    await withPending('all:balance', async () => {
      await channels.updateAllBalances()
      toast.info(t('channels.balancesUpdated'))
    })
  }

  async function deleteSelected() {
    const ids = [...selection.selected]
    const ok = await confirm({
      title: L('channels.confirmDeleteSelected', { n: ids.length }),
      body: <DeletionList ids={ids} />,
      confirmLabel: L('admin.delete'),
      danger: true,
    })
    if (!ok) return
    await withPending('all:batch', async () => {
      const n = await channels.removeChannels(ids)
      selection.clear()
      toast.success(t('channels.deletedMany', { n }))
    })
  }

  async function deleteDisabled() {
    const ok = await confirm({ title: L('channels.confirmDeleteDisabled'), confirmLabel: L('admin.delete'), danger: true })
    if (!ok) return
    await withPending('all:disabled', async () => {
      const n = await channels.removeDisabledChannels()
      toast.success(t('channels.deletedDisabled', { n }))
      selection.clear()
    })
  }

  async function checkAccounts(act: AccountCheck) {
    await withPending(`all:${act}`, async () => {
      const r = await channels.checkAccounts(act)
      toast.info(L('channels.checked', { checked: r.checked, disabled: r.disabled, enabled: r.enabled }))
    })
  }

  async function fix() {
    await withPending('all:fix', async () => {
      const n = await channels.fixAbilities()
      toast.success(t('channels.fixed', { n }))
    })
  }

  return { testAll, updateAllBalances, deleteSelected, deleteDisabled, checkAccounts, fix }
}

/** What the buttons of a channel row do, with their busy states and outcomes. */
export function useChannelRowActions({
  confirm,
  withPending,
  selection,
  onEdit,
}: {
  confirm: ReturnType<typeof useConfirm>['confirm']
  withPending: ReturnType<typeof usePending>['withPending']
  selection: ReturnType<typeof useRowSelection>
  onEdit: (c: Channel) => void
}): ChannelActions {
  const t = useT()
  const L = useLabels()
  return {
    test: (c, model) =>
      void withPending(`${c.id}:test`, async () => {
        const seconds = await channels.testChannel(c, model)
        toast.success(t('channels.tested', { name: c.name, seconds: seconds.toFixed(2) }))
      }),
    toggle: (c) =>
      void withPending(`${c.id}:status`, async () => {
        await channels.toggleChannel(c)
        toast.success(t('admin.done'))
      }),
    edit: onEdit,
    copy: (c) =>
      void withPending(`${c.id}:copy`, async () => {
        if (await channels.copyChannel(c, (full) => copyBody(full, L('channels.copySuffix')))) toast.success(t('channels.copied'))
        else toast.error(t('channels.error.copyFailed'))
      }),
    remove: (c) =>
      void (async () => {
        const ok = await confirm({ title: L('channels.confirmDelete', { name: c.name }), confirmLabel: L('admin.delete'), danger: true })
        if (!ok) return
        await withPending(`${c.id}:delete`, async () => {
          await channels.removeChannel(c)
          selection.drop(c.id)
          toast.success(t('admin.done'))
        })
      })(),
    updateBalance: (c) =>
      void withPending(`${c.id}:balance`, async () => {
        await channels.updateBalance(c)
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
          await channels.updateChannel({ id: c.id, [field]: value })
          toast.success(t('admin.done'))
        } catch (e) {
          input.value = String(c[field])
          throw e
        }
      })
    },
  }
}

type ChannelTools = ReturnType<typeof useChannelTools>

/** The toolbar above the channel list: delete the selected (disabled, saying why, while none is), test all, update all balances, more tools. */
export function ChannelToolbar({ tools, pending, selected }: { tools: ChannelTools; pending: ReadonlySet<string>; selected: number }) {
  const L = useLabels()
  const t = useT()
  const { testAll, updateAllBalances, deleteSelected, deleteDisabled, checkAccounts, fix } = tools
  // nothing selected: the button could only fail, so it is disabled and says why
  const none = selected === 0
  return (
    <div className="tg-admin__toolbar" role="toolbar" aria-label={L('channels.tools')}>
      <sl-button
        size="small"
        variant="danger"
        outline
        data-action="delete-selected"
        disabled={none}
        title={none ? t('channels.error.selectFirst') : undefined}
        loading={pending.has('all:batch')}
        onClick={() => void deleteSelected()}
      >
        <sl-icon slot="prefix" name="trash3"></sl-icon>
        {L('channels.deleteSelected', { n: selected })}
      </sl-button>
      {none && (
        <span className="tg-admin__sub" data-hint="delete-selected">
          {t('channels.error.selectFirst')}
        </span>
      )}
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
  )
}

/** Under the list: the ID sort and the page size, both kept in the preferences. */
export function ChannelListSettings({ idSort, pageSize }: { idSort: boolean; pageSize: number }) {
  const L = useLabels()
  const locale = useLocale()
  return (
    <>
      <span className="tg-admin__spacer"></span>
      <sl-switch
        size="small"
        name="id-sort"
        checked={idSort}
        onsl-change={(e: Event) => $prefs.setKey('id-sort', (e.target as HTMLInputElement).checked)}
      >
        {L('channels.idSort')}
      </sl-switch>
      {/* keyed by the language: the select keeps the label it showed until its value changes */}
      <sl-select
        key={locale}
        size="small"
        name="page-size"
        hoist
        className="tg-admin__page-size tg-inline-label"
        label={L('admin.pageSize')}
        value={String(pageSize)}
        onsl-change={(e: Event) => $prefs.setKey('page-size', Number((e.target as HTMLInputElement).value))}
      >
        {PAGE_SIZES.map((n) => (
          <sl-option key={n} value={String(n)}>
            {L('admin.perPage', { n })}
          </sl-option>
        ))}
      </sl-select>
    </>
  )
}
