import type { FormEvent, ReactNode } from 'react'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../icons/search.ts'

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
      <sl-input
        className="tg-sr-label"
        name="keyword"
        size="small"
        clearable
        placeholder={keywordLabel}
        label={keywordLabel}
        value={keyword}
        onsl-input={(e: Event) => onKeyword((e.target as HTMLInputElement).value ?? '')}
      >
        <sl-icon slot="prefix" name="search"></sl-icon>
      </sl-input>
      {children}
      <sl-button type="submit" size="small" variant="primary" data-action="search">
        {searchLabel}
      </sl-button>
    </form>
  )
}
