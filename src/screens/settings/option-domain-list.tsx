import { useId, useState, type KeyboardEvent } from 'react'
import { useT } from '../../i18n/t.ts'
import type { FieldDef, OptionForm } from './option-form.tsx'
import { emailDomains } from '../../../domain/option-rules.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '../../ui/icons/plus-lg.ts'
import '../../i18n/en/settings.ts'

/**
 * EmailDomainWhitelist edited as a list: one tag per domain, an input to add more (several at
 * once, separated by commas or spaces). Adding de-duplicates: a domain already listed is not added twice.
 */
export function DomainList({ form, field, label }: { form: OptionForm; field: FieldDef; label: string }) {
  const t = useT()
  const labelId = useId()
  const [input, setInput] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const domains = emailDomains(form.value(field.key))

  const add = () => {
    const fresh = emailDomains(input)
    if (fresh.length === 0) return
    const listed = new Set(domains)
    const repeated = [...new Set(fresh.filter((d) => listed.has(d)))]
    form.set(field.key, [...new Set([...domains, ...fresh])].join(','))
    setInput('')
    setNote(repeated.length ? t('options.domainExists', { domain: repeated.join(', ') }) : null)
  }

  const remove = (domain: string) => {
    form.set(field.key, domains.filter((d) => d !== domain).join(','))
    setNote(null)
  }

  const onKeyDown = (e: KeyboardEvent) => {
    // Enter adds the domain instead of submitting the form
    if (e.key === 'Enter') {
      e.preventDefault()
      add()
    }
  }

  return (
    <div className="tg-domains tg-opt__field--wide" role="group" aria-labelledby={labelId} data-option={field.key}>
      <div id={labelId} className="tg-domains__label">
        {label}
      </div>
      {domains.length > 0 ? (
        <ul className="tg-domains__list">
          {domains.map((d) => (
            <li key={d} className="tg-domains__item" data-domain={d}>
              <span>{d}</span>
              <sl-icon-button
                name="x-lg"
                library="system"
                label={t('options.domainRemove', { domain: d })}
                onClick={() => remove(d)}
              ></sl-icon-button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="tg-opt__note">{t('options.domainEmpty')}</p>
      )}
      <div className="tg-domains__add">
        <sl-input
          name="domain-input"
          label={t('options.domainInput')}
          placeholder={t('options.domainPlaceholder')}
          value={input}
          autocomplete="off"
          onsl-input={(e: Event) => setInput((e.target as HTMLInputElement).value)}
          onKeyDown={onKeyDown}
        ></sl-input>
        <sl-button onClick={add} data-domain-add="">
          <sl-icon slot="prefix" name="plus-lg"></sl-icon>
          {t('options.domainAdd')}
        </sl-button>
      </div>
      <p className="tg-opt__note" role="status">
        {note}
      </p>
    </div>
  )
}
