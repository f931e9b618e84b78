import { useId } from 'react'
import { useLabels, type LabelKey } from './option-labels.ts'
import { useT } from '../../i18n/t.ts'
import { isHttpUrl, sanitizeHtml } from '../../ui/sanitize.ts'
import { OptionsTab, useOptionForm, type FieldDef } from './option-form.tsx'
import { OptionField, OptionSection } from './option-fields.tsx'
import { SimpleSection } from './option-simple.tsx'
import '../../i18n/en/settings.ts'

const html = (key: string): FieldDef => ({ key, kind: 'textarea', code: true })

/** The option forms of the other tab: one key each, each with its own Save. */
const OTHER_FIELDS = {
  notice: [html('Notice')],
  systemName: [{ key: 'SystemName', kind: 'text' }],
  logo: [{ key: 'Logo', kind: 'text', placeholder: 'https://' }],
  home: [html('HomePageContent')],
  about: [html('About')],
  footer: [html('Footer')],
} satisfies Record<string, readonly FieldDef[]>

/**
 * An HTML option with a live preview of exactly what the console will render: the sanitised
 * HTML (src/ui/sanitize.ts), or for the home and about pages an address shown as an embedded page.
 */
function HtmlSection({
  id,
  fields,
  title,
  hint,
  allowUrl = false,
}: {
  id: string
  fields: readonly FieldDef[]
  title: LabelKey
  hint: LabelKey
  allowUrl?: boolean
}) {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(fields)
  const field = fields[0]!
  const value = form.value(field.key)
  const labelId = useId()
  let preview
  if (allowUrl && isHttpUrl(value)) {
    preview = <p className="tg-preview__body tg-preview__empty">{t('options.previewUrl', { url: value.trim() })}</p>
  } else if (value.trim()) {
    preview = <div className="tg-preview__body tg-prose" data-preview-body="" dangerouslySetInnerHTML={{ __html: sanitizeHtml(value) }} />
  } else {
    preview = <p className="tg-preview__body tg-preview__empty">{t('options.previewEmpty')}</p>
  }
  return (
    <OptionSection id={id} title={lt(title)} hint={lt(hint)} form={form}>
      <div className="tg-editor">
        <OptionField form={form} field={field} />
        <div className="tg-preview" role="region" aria-labelledby={labelId} data-preview={field.key}>
          <div className="tg-preview__label" id={labelId}>
            {t('options.preview')}
          </div>
          {preview}
          <p className="tg-preview__note">{t('options.previewNote')}</p>
        </div>
      </div>
    </OptionSection>
  )
}

function LogoSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(OTHER_FIELDS.logo)
  const logo = form.value('Logo').trim()
  return (
    <OptionSection id="logo" title={lt('opsec.logo')} hint={lt('opsec.logoHint')} form={form}>
      <div className="tg-logo-preview">
        <div style={{ flex: 1 }}>
          <OptionField form={form} field={OTHER_FIELDS.logo[0]} />
        </div>
        {logo && <img src={logo} alt={t('options.logoAlt')} data-logo-preview="" />}
      </div>
    </OptionSection>
  )
}

function OtherForms() {
  const lt = useLabels()
  return (
    <>
      <HtmlSection id="notice" fields={OTHER_FIELDS.notice} title="opsec.notice" hint="opsec.noticeHint" />
      <SimpleSection id="systemName" title={lt('opsec.systemName')} hint={lt('opsec.systemNameHint')} fields={OTHER_FIELDS.systemName} />
      <LogoSection />
      <HtmlSection id="home" fields={OTHER_FIELDS.home} title="opsec.home" hint="opsec.homeHint" allowUrl />
      <HtmlSection id="about" fields={OTHER_FIELDS.about} title="opsec.about" hint="opsec.aboutHint" allowUrl />
      <HtmlSection id="footer" fields={OTHER_FIELDS.footer} title="opsec.footer" hint="opsec.footerHint" />
    </>
  )
}

/**
 * The other settings tab (super administrator): announcement, system name, logo, home page
 * content, about and footer, each saved on its own, the HTML ones with a live sanitised preview.
 */
export function OtherTab() {
  return (
    <OptionsTab id="other">
      <OtherForms />
    </OptionsTab>
  )
}
