import type { FormEvent, ReactNode } from 'react'
import { useT } from '../../i18n/t.ts'
import { DomainList } from './option-domain-list.tsx'
import { useLabels, type LabelKey } from './option-labels.ts'
import { choicesOf, isInteger, optionLabel, type Change, type FieldDef } from './option-rules.ts'
import type { OptionForm } from './option-form.tsx'
import { valueOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/alert/alert.js'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/icon/icon.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js'
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '@shoelace-style/shoelace/dist/components/textarea/textarea.js'
import '../../ui/icons/exclamation-triangle.ts'
import '../../i18n/en/settings.ts'

/** What every kind of field shares: name, label, help text (the error first), state classes. */
interface FieldProps {
  form: OptionForm
  field: FieldDef
  disabled: boolean
  label: string
  help: string | undefined
  common: {
    name: string
    'data-option': string
    label: string
    helpText: string | undefined
    disabled: boolean
    className: string
    'data-invalid': string | undefined
  }
}

function SwitchField({ form, field, disabled, label, help }: FieldProps) {
  const { key } = field
  return (
    <div className={`tg-opt__switch${field.wide ? ' tg-opt__field--wide' : ''}`}>
      <sl-switch
        name={key}
        data-option={key}
        checked={form.value(key) === 'true'}
        disabled={disabled}
        helpText={help}
        onsl-change={(e: Event) => form.set(key, (e.target as HTMLInputElement).checked ? 'true' : 'false')}
      >
        {label}
      </sl-switch>
    </div>
  )
}

function ChoiceField({ form, field, common }: FieldProps) {
  const labels = useLabels()
  return (
    <sl-radio-group {...common} value={form.value(field.key)} onsl-change={(e: Event) => form.set(field.key, valueOf(e))}>
      {choicesOf(field.key).map((c) => (
        <sl-radio-button key={c} value={c} data-choice={c}>
          {labels(`opt.${c}` as LabelKey)}
        </sl-radio-button>
      ))}
    </sl-radio-group>
  )
}

function TextareaField({ form, field, common }: FieldProps) {
  const code = field.kind === 'json' || !!field.code
  return (
    <sl-textarea
      {...common}
      className={`${common.className} tg-opt__field--wide${code ? ' tg-opt__code' : ''}`}
      value={form.value(field.key)}
      rows={code ? 8 : 4}
      resize="vertical"
      spellcheck={code ? false : undefined}
      onsl-input={(e: Event) => form.set(field.key, valueOf(e))}
      onsl-blur={() => form.blur(field.key)}
    ></sl-textarea>
  )
}

function InputField({ form, field, common }: FieldProps) {
  const t = useT()
  const { key, kind } = field
  return (
    <sl-input
      {...common}
      type={kind === 'secret' ? 'password' : kind === 'number' ? 'number' : kind === 'url' ? 'url' : 'text'}
      inputmode={kind === 'number' ? (isInteger(key) ? 'numeric' : 'decimal') : undefined}
      noSpinButtons={kind === 'number' ? true : undefined}
      passwordToggle={kind === 'secret' ? true : undefined}
      autocomplete={kind === 'secret' ? 'new-password' : 'off'}
      placeholder={kind === 'secret' ? t('options.secretPlaceholder') : field.placeholder}
      value={form.value(key)}
      onsl-input={(e: Event) => form.set(key, valueOf(e))}
      onsl-blur={() => form.blur(key)}
    ></sl-input>
  )
}

/** One field of an option form, drawn by its kind. */
export function OptionField({
  form,
  field,
  disabled = false,
  hint,
}: {
  form: OptionForm
  field: FieldDef
  disabled?: boolean
  hint?: string
}) {
  const t = useT()
  const labels = useLabels()
  const { key } = field
  const label = optionLabel(labels, key)
  const error = form.errors[key]
  const help = error ?? hint ?? (field.kind === 'secret' ? t('options.secretHint') : field.hint ? labels(field.hint) : undefined)
  const common = {
    name: key,
    'data-option': key,
    label,
    helpText: help,
    disabled,
    className: `tg-opt__field${field.wide ? ' tg-opt__field--wide' : ''}${error ? ' tg-opt__field--invalid' : ''}`,
    'data-invalid': error ? '' : undefined,
  }
  const props = { form, field, disabled, label, help, common }
  switch (field.kind) {
    case 'switch':
      return <SwitchField {...props} />
    case 'choice':
      return <ChoiceField {...props} />
    case 'json':
    case 'textarea':
      return <TextareaField {...props} />
    case 'list':
      return <DomainList form={form} field={field} label={label} />
    default:
      return <InputField {...props} />
  }
}

/** The fields of a form: inputs in a grid, switches together below them. */
export function OptionFields({ form, only }: { form: OptionForm; only?: readonly string[] }) {
  const fields = only ? form.fields.filter((f) => only.includes(f.key)) : form.fields
  const inputs = fields.filter((f) => f.kind !== 'switch')
  const switches = fields.filter((f) => f.kind === 'switch')
  return (
    <>
      {switches.length > 0 && (
        <div className="tg-opt__switches">
          {switches.map((f) => (
            <OptionField key={f.key} form={form} field={f} />
          ))}
        </div>
      )}
      {inputs.length > 0 && (
        <div className="tg-opt__grid">
          {inputs.map((f) => (
            <OptionField key={f.key} form={form} field={f} />
          ))}
        </div>
      )}
    </>
  )
}

interface OptionSectionProps {
  id: string
  title: string
  hint?: string
  form: OptionForm
  /** runs after the checks, before the first PUT; false stops the save */
  before?: (changes: Change[]) => boolean | Promise<boolean>
  /** the fields; the form's fields in the standard layout when absent */
  children?: ReactNode
  /** more buttons beside Save */
  actions?: ReactNode
}

/** A card with one option form and its Save button. */
export function OptionSection({ id, title, hint, form, before, children, actions }: OptionSectionProps) {
  const t = useT()
  const labels = useLabels()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!form.busy) void form.save(before)
  }
  return (
    <section className="tg-opt" data-section={id} aria-labelledby={`tg-opt-${id}`}>
      <form className="tg-opt__form" onSubmit={submit} noValidate>
        <header className="tg-opt__header">
          <h2 id={`tg-opt-${id}`}>{title}</h2>
          {hint && <p>{hint}</p>}
        </header>
        {children ?? <OptionFields form={form} />}
        {form.failures.length > 0 && (
          <sl-alert variant="danger" open data-failures="">
            <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
            {t('options.failedList')}
            <ul className="tg-opt__failures">
              {form.failures.map((f) => (
                <li key={f.key}>
                  <strong>{optionLabel(labels, f.key)}</strong> ({f.key}): {f.message}
                </li>
              ))}
            </ul>
          </sl-alert>
        )}
        <footer className="tg-opt__footer">
          {form.dirty && (
            <span className="tg-opt__dirty" data-dirty="">
              {t('options.unsaved')}
            </span>
          )}
          {actions}
          <sl-button type="submit" variant="primary" loading={form.busy} data-save={id}>
            {t('options.save')}
          </sl-button>
        </footer>
      </form>
    </section>
  )
}
