import type { FormEvent, ReactNode } from 'react'
import { SearchBox } from '../search-box.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'

/**
 * The search form above an administrator list: a keyword box, the list's own filters
 * (`children`) and the search button.
 */
export function AdminSearch({
  keyword,
  onKeyword,
  keywordLabel,
  searchLabel,
  onSubmit,
  children,
}: {
  keyword: string
  onKeyword: (value: string) => void
  /** placeholder and accessible name of the keyword box */
  keywordLabel: string
  searchLabel: string
  onSubmit: (e: FormEvent) => void
  children?: ReactNode
}) {
  return (
    <form className="tg-admin__search" role="search" onSubmit={onSubmit} data-form="search">
      <SearchBox name="keyword" label={keywordLabel} value={keyword} onValue={onKeyword} />
      {children}
      <sl-button type="submit" size="small" variant="primary" data-action="search">
        {searchLabel}
      </sl-button>
    </form>
  )
}
