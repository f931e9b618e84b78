import { useStore } from '@nanostores/react'
import { useLocale } from '../../i18n/t.ts'
import type { Channel } from '../../api/types.ts'
import { $status } from '../../stores/status.ts'
import { formatQuota } from '../../ui/format.ts'
import { formatDateTime } from '../../ui/datetime.ts'
import { useLabels, type LabelKey } from '../../ui/admin/labels.ts'
import { channelStatusKey, MODEL_MAPPING_TEMPLATE, otherLabel, STATUS_CODE_TEMPLATE, type ChannelForm } from './channel-rules.ts'
import { CHANNEL_TYPE, CHANNEL_TYPES, channelType, channelTypeName } from '../../../domain/channel-types.ts'
import { PRIORITY_MIN, WEIGHT_MIN } from '../../../domain/channel-rules.ts'
import { ResponseTime, useDisabledReason } from './channels-table.tsx'
import { checkedOf, valueOf } from '../../ui/events.ts'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '@shoelace-style/shoelace/dist/components/input/input.js'
import '@shoelace-style/shoelace/dist/components/option/option.js'
import '@shoelace-style/shoelace/dist/components/select/select.js'
import '@shoelace-style/shoelace/dist/components/switch/switch.js'
import '@shoelace-style/shoelace/dist/components/textarea/textarea.js'

/** The parts of the channel form below: they draw the form's fields and report each change. */
export interface FieldsProps {
  form: ChannelForm
  set: <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) => void
}

type TextKey = 'model_mapping' | 'status_code_mapping'
type NumberKey = 'priority' | 'weight' | 'max_input_tokens'

/** A JSON text area with the button that fills in its template. */
function JsonField(
  props: FieldsProps & { name: TextKey; label: LabelKey; help: LabelKey; rows: number; template: string; action: string },
) {
  const { form, set, name, template } = props
  const L = useLabels()
  return (
    <div className="tg-channel-form__json">
      <sl-textarea
        label={L(props.label)}
        name={name}
        rows={props.rows}
        resize="vertical"
        placeholder={template}
        help-text={L(props.help)}
        value={form[name]}
        onsl-input={(e: Event) => set(name, valueOf(e))}
      ></sl-textarea>
      <sl-button size="small" variant="text" data-action={props.action} onClick={() => set(name, template)}>
        {L('channels.fillTemplate')}
      </sl-button>
    </div>
  )
}

function NumberField({ form, set, name, label, min }: FieldsProps & { name: NumberKey; label: LabelKey; min: number }) {
  const L = useLabels()
  return (
    <sl-input
      label={L(label)}
      name={name}
      type="number"
      min={min}
      step="1"
      value={form[name]}
      onsl-input={(e: Event) => set(name, valueOf(e))}
    ></sl-input>
  )
}

/** The key: one, or one per line in a batch create; an edit keeps the stored key when left empty. */
function KeyField({ form, set, isNew }: FieldsProps & { isNew: boolean }) {
  const L = useLabels()
  const keyFormat = channelType(form.type)?.keyFormat
  const keyHelp = keyFormat ? L('channels.keyFormat', { format: keyFormat }) : L('channels.keyGeneric')
  return isNew && form.batch ? (
    <sl-textarea
      label={L('channels.field.keys')}
      name="key"
      rows={4}
      resize="vertical"
      placeholder={keyFormat ?? L('channels.placeholder.key')}
      help-text={`${keyHelp} ${L('channels.batchHelp')}`}
      value={form.key}
      onsl-input={(e: Event) => set('key', valueOf(e))}
    ></sl-textarea>
  ) : (
    <sl-input
      label={L('channels.field.key')}
      name="key"
      required={isNew}
      autocomplete="off"
      placeholder={isNew ? (keyFormat ?? L('channels.placeholder.key')) : L('channels.placeholder.keepKey')}
      help-text={keyHelp}
      value={form.key}
      onsl-input={(e: Event) => set('key', valueOf(e))}
    ></sl-input>
  )
}

/** Type, name, key (one, or one per line in a batch), base URL, `other` and the organization. */
export function ConnectionFields({ form, set, isNew, setType }: FieldsProps & { isNew: boolean; setType: (type: number) => void }) {
  const L = useLabels()
  const locale = useLocale()
  return (
    <>
      <sl-select
        label={L('channels.field.type')}
        name="type"
        value={String(form.type)}
        hoist
        onsl-change={(e: Event) => setType(Number(valueOf(e)))}
      >
        {CHANNEL_TYPES.map(({ type: n }) => (
          <sl-option key={n} value={String(n)}>
            {channelTypeName(n, locale)}
          </sl-option>
        ))}
      </sl-select>
      <sl-input
        label={L('channels.field.name')}
        name="name"
        required={isNew}
        placeholder={L('channels.placeholder.name')}
        value={form.name}
        onsl-input={(e: Event) => set('name', valueOf(e))}
      ></sl-input>
      {isNew && (
        <sl-switch name="batch" checked={form.batch} onsl-change={(e: Event) => set('batch', checkedOf(e))}>
          {L('channels.field.batch')}
        </sl-switch>
      )}
      <KeyField form={form} set={set} isNew={isNew} />
      <sl-input
        label={L('channels.field.baseUrl')}
        name="base_url"
        type="url"
        placeholder={form.type === CHANNEL_TYPE.azure ? 'https://docs-test-001.openai.azure.com' : L('channels.placeholder.baseUrl')}
        value={form.base_url}
        onsl-input={(e: Event) => set('base_url', valueOf(e))}
      ></sl-input>
      <sl-input
        label={L(otherLabel(form.type))}
        name="other"
        placeholder={channelType(form.type)?.defaultOther ?? L('channels.placeholder.other')}
        value={form.other}
        onsl-input={(e: Event) => set('other', valueOf(e))}
      ></sl-input>
      {form.type === 1 && (
        <sl-input
          label={L('channels.field.organization')}
          name="openai_organization"
          placeholder="org-…"
          value={form.openai_organization}
          onsl-input={(e: Event) => set('openai_organization', valueOf(e))}
        ></sl-input>
      )}
    </>
  )
}

/** Test model, groups, the two mappings, priority, weight, input limit and automatic disabling. */
export function RoutingFields({ form, set, groups }: FieldsProps & { groups: readonly string[] }) {
  const L = useLabels()
  const groupOptions = [...new Set([...groups, ...form.groups])]
  return (
    <>
      <sl-input
        label={L('channels.field.testModel')}
        name="test_model"
        placeholder={form.models[0] ?? ''}
        help-text={L('channels.testModelHelp')}
        value={form.test_model}
        onsl-input={(e: Event) => set('test_model', valueOf(e))}
      ></sl-input>
      <sl-select
        label={L('channels.field.groups')}
        name="groups"
        multiple
        clearable
        hoist
        max-options-visible="0"
        value={form.groups}
        onsl-change={(e: Event) => set('groups', [...((e.target as unknown as { value: string[] }).value ?? [])])}
      >
        {groupOptions.map((g) => (
          <sl-option key={g} value={g}>
            {g}
          </sl-option>
        ))}
      </sl-select>
      <JsonField
        form={form}
        set={set}
        name="model_mapping"
        label="channels.field.modelMapping"
        help="channels.modelMappingHelp"
        rows={3}
        template={MODEL_MAPPING_TEMPLATE}
        action="model-mapping-template"
      />
      <JsonField
        form={form}
        set={set}
        name="status_code_mapping"
        label="channels.field.statusMapping"
        help="channels.statusMappingHelp"
        rows={2}
        template={STATUS_CODE_TEMPLATE}
        action="status-mapping-template"
      />
      <div className="tg-channel-form__row">
        <NumberField form={form} set={set} name="priority" label="channels.field.priority" min={PRIORITY_MIN} />
        <NumberField form={form} set={set} name="weight" label="channels.field.weight" min={WEIGHT_MIN} />
        <NumberField form={form} set={set} name="max_input_tokens" label="channels.field.maxInputTokens" min={0} />
      </div>
      <sl-switch
        name="auto_ban"
        checked={form.auto_ban}
        help-text={L('channels.autoBanHelp')}
        onsl-change={(e: Event) => set('auto_ban', checkedOf(e))}
      >
        {L('channels.field.autoBan')}
      </sl-switch>
    </>
  )
}

/** What the server measured about a channel: shown, never edited. */
export function ChannelFacts({ channel }: { channel: Channel }) {
  const L = useLabels()
  const locale = useLocale()
  const status = useStore($status)
  const why = useDisabledReason(channel)
  return (
    <dl className="tg-facts" data-facts="">
      <div>
        <dt>ID</dt>
        <dd>{channel.id}</dd>
      </div>
      <div>
        <dt>{L('channels.col.status')}</dt>
        <dd>{L(channelStatusKey(channel.status))}</dd>
      </div>
      <div>
        <dt>{L('channels.col.responseTime')}</dt>
        <dd>
          {/* the row's pill: failed while the last test failed, not the time that test took */}
          <ResponseTime channel={channel} why="always" />
        </dd>
      </div>
      <div>
        <dt>{L('channels.col.balance')}</dt>
        <dd>${(channel.balance ?? 0).toFixed(2)}</dd>
      </div>
      <div>
        <dt>{L('channels.col.usedQuota')}</dt>
        <dd>{formatQuota(channel.used_quota ?? 0, status)}</dd>
      </div>
      <div>
        <dt>{L('channels.created_time')}</dt>
        <dd>{formatDateTime(channel.created_time, locale)}</dd>
      </div>
      <div>
        <dt>{L('channels.test_time')}</dt>
        <dd>{formatDateTime(channel.test_time, locale)}</dd>
      </div>
      <div>
        <dt>{L('channels.balance_updated_time')}</dt>
        <dd>{formatDateTime(channel.balance_updated_time, locale)}</dd>
      </div>
      {why ? (
        <div className="tg-facts__wide" data-fact="status-reason">
          <dt>{L('channels.statusReason')}</dt>
          <dd>{why.when ? `${why.reason} (${why.when})` : why.reason}</dd>
        </div>
      ) : null}
    </dl>
  )
}
