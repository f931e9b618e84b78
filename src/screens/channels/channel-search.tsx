import { useState, type FormEvent } from 'react'
import type { ChannelSearch } from '../../api/channels.ts'
import { AdminSearch } from '../../ui/admin/search.tsx'
import { useLabels } from '../../ui/admin/labels.ts'
import { SearchBox } from '../../ui/search-box.tsx'
import { setField } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'

const EMPTY_SEARCH: ChannelSearch = { keyword: '', group: '', model: '', status: '' }

export const isEmptySearch = (q: ChannelSearch) => !q.keyword.trim() && !q.group && !q.model.trim() && !q.status

/** Search by keyword (id, name or exact key), group, model and status. */
export function ChannelSearchForm({ groups, onSearch }: { groups: readonly string[]; onSearch: (q: ChannelSearch) => void }) {
  const L = useLabels()
  const [q, setQ] = useState<ChannelSearch>(EMPTY_SEARCH)
  const set = (key: keyof ChannelSearch) => setField(setQ, key)

  function submit(e: FormEvent) {
    e.preventDefault()
    onSearch(q)
  }

  return (
    <AdminSearch
      keyword={q.keyword}
      onKeyword={(keyword) => setQ((prev) => ({ ...prev, keyword }))}
      keywordLabel={L('channels.search.keyword')}
      searchLabel={L('admin.search')}
      onSubmit={submit}
    >
      <sl-select
        className="tg-inline-label"
        name="group"
        size="small"
        clearable
        hoist
        placeholder={L('channels.search.group')}
        label={L('channels.search.group')}
        value={q.group}
        onsl-change={set('group')}
      >
        {groups.map((g) => (
          <sl-option key={g} value={g}>
            {g}
          </sl-option>
        ))}
      </sl-select>
      <SearchBox
        name="model"
        label={L('channels.search.model')}
        value={q.model}
        onValue={(model) => setQ((prev) => ({ ...prev, model }))}
        icon={false}
      />
      <sl-select
        className="tg-inline-label"
        name="status"
        size="small"
        clearable
        hoist
        placeholder={L('channels.search.status')}
        label={L('channels.search.status')}
        value={q.status}
        onsl-change={set('status')}
      >
        <sl-option value="1">{L('channels.status.enabled')}</sl-option>
        <sl-option value="2">{L('channels.status.manual')}</sl-option>
        <sl-option value="3">{L('channels.status.auto')}</sl-option>
      </sl-select>
    </AdminSearch>
  )
}
