import { useState, type FormEvent } from 'react'
import { useLocale, useT } from '../../i18n/t.ts'
import { $prefs, PAGE_SIZES } from '../../stores/prefs.ts'
import { SearchBox } from '../../ui/search-box.tsx'
import { valueOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '../../ui/icons/clipboard.ts'
import '../../i18n/en/tokens.ts'

/**
 * Above the token list: the search by name and by key, "copy selected" with how many are ticked,
 * and the page size (kept in the preferences).
 */
export function TokensToolbar({
  pageSize,
  selectedCount,
  onSearch,
  onCopySelected,
}: {
  pageSize: number | undefined
  selectedCount: number
  onSearch: (keyword: string, key: string) => void
  onCopySelected: () => void
}) {
  const t = useT()
  const locale = useLocale()
  return (
    <div className="tg-toolbar">
      <TokensSearch onSearch={onSearch} />
      <div className="tg-toolbar__end">
        <sl-button size="small" data-action="copy-selected" onClick={onCopySelected}>
          <sl-icon slot="prefix" name="clipboard"></sl-icon>
          {t('token.copySelected')}
          {selectedCount > 0 && ` (${selectedCount})`}
        </sl-button>
        {/* keyed by the language: the select keeps the label it showed until its value changes */}
        <sl-select
          key={locale}
          name="page_size"
          size="small"
          className="tg-page-size tg-inline-label"
          label={t('token.pageSize')}
          value={String(pageSize)}
          onsl-change={(e: Event) => $prefs.setKey('token-page-size', Number(valueOf(e)) || PAGE_SIZES[0])}
        >
          {PAGE_SIZES.map((n) => (
            <sl-option key={n} value={String(n)}>
              {t('token.perPage', { n })}
            </sl-option>
          ))}
        </sl-select>
      </div>
    </div>
  )
}

/** The search form: a name and a key, searched together when the form is sent. */
function TokensSearch({ onSearch }: { onSearch: (keyword: string, key: string) => void }) {
  const t = useT()
  const [keyword, setKeyword] = useState('')
  const [keySearch, setKeySearch] = useState('')
  function submit(e: FormEvent) {
    e.preventDefault()
    onSearch(keyword, keySearch)
  }
  return (
    <form className="tg-toolbar__search" role="search" onSubmit={submit} noValidate>
      <SearchBox name="keyword" label={t('token.searchName')} value={keyword} onValue={setKeyword} />
      <SearchBox name="token" label={t('token.searchKey')} value={keySearch} onValue={setKeySearch} icon={false} />
      <sl-button size="small" type="submit" data-action="search">
        {t('token.search')}
      </sl-button>
    </form>
  )
}
