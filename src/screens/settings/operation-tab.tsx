import { useState } from 'react'
import { useLabels } from './option-labels.ts'
import { useT } from '../../i18n/t.ts'
import { resetModelRatios } from '../../stores/options.ts'
import { toast } from '../../stores/toasts.ts'
import { Link } from '../../ui/navigation.tsx'
import { OptionsTab, useOptionForm, useOptions, type FieldDef } from './option-form.tsx'
import { OptionFields, OptionSection } from './option-fields.tsx'
import { SimpleSection } from './option-simple.tsx'
import { useConfirm } from './option-confirm.tsx'
import '@shoelace-style/shoelace/dist/components/button/button.js'
import '../../i18n/en/settings.ts'

const sw = (key: string): FieldDef => ({ key, kind: 'switch' })
const text = (key: string, extra: Partial<FieldDef> = {}): FieldDef => ({ key, kind: 'text', ...extra })
/** a number: its bounds are the option's rule (domain/option-rules.ts) */
const num = (key: string, extra: Partial<FieldDef> = {}): FieldDef => ({ key, kind: 'number', ...extra })
const json = (key: string, hint?: FieldDef['hint']): FieldDef => ({ key, kind: 'json', hint })

/** The option forms of the operation tab, by section (spec sections 2, 3 and 5). */
const OPERATION_FIELDS = {
  general: [
    text('TopUpLink', { hint: 'optHint.TopUpLink', placeholder: 'https://' }),
    text('ChatLink', { hint: 'optHint.ChatLink', placeholder: 'https://' }),
    text('ChatLink2', { placeholder: 'https://' }),
    num('QuotaPerUnit', { hint: 'optHint.QuotaPerUnit' }),
    num('RetryTimes', { hint: 'optHint.RetryTimes' }),
    text('CapPools'),
    text('SunoCapStr'),
    text('SunoServer', { placeholder: 'https://' }),
    text('SunoVersion'),
    text('SunoProxy'),
    text('SunoMe'),
    { key: 'StopWord', kind: 'textarea', hint: 'optHint.StopWord' },
    sw('DisplayInCurrencyEnabled'),
    sw('DisplayTokenStatEnabled'),
    sw('DefaultCollapseSidebar'),
    sw('UserTimeEnabled'),
  ],
  drawing: [
    sw('DrawingEnabled'),
    sw('MjNotifyEnabled'),
    sw('MjAccountFilterEnabled'),
    sw('MjForwardUrlEnabled'),
    sw('MjModeClearEnabled'),
    sw('MjTranslate'),
    text('MjTranslateModel', { placeholder: 'gpt-4o-mini' }),
    sw('ViggleProEnabled'),
    text('MjCDNProxy', { placeholder: 'https://' }),
    sw('MjActionCheckSuccessEnabled'),
    num('TaskPollInterval'),
    num('TaskTimeout'),
  ],
  sensitive: [sw('CheckSensitiveEnabled'), sw('CheckSensitiveOnPromptEnabled'), { key: 'SensitiveWords', kind: 'textarea' }],
  logs: [sw('LogConsumeEnabled')],
  dashboard: [
    sw('DataExportEnabled'),
    num('DataExportInterval', { hint: 'optHint.DataExportInterval' }),
    { key: 'DataExportDefaultTime', kind: 'choice' },
  ],
  monitoring: [
    num('ChannelDisableThreshold', { hint: 'optHint.ChannelDisableThreshold' }),
    num('QuotaRemindThreshold', { hint: 'optHint.QuotaRemindThreshold' }),
    sw('AutomaticDisableChannelEnabled'),
    sw('AutomaticEnableChannelEnabled'),
  ],
  quota: [
    num('QuotaForNewUser'),
    num('PreConsumedQuota', { hint: 'optHint.PreConsumedQuota' }),
    num('QuotaForInviter'),
    num('QuotaForInvitee'),
  ],
  ratios: [
    json('ModelPrice', 'optHint.ModelPrice'),
    json('ModelRatio', 'optHint.ModelRatio'),
    json('CompletionRatio', 'optHint.CompletionRatio'),
    json('GroupRatio', 'optHint.GroupRatio'),
    json('VmodelMap', 'optHint.VmodelMap'),
    json('SunoLimit', 'optHint.SunoLimit'),
  ],
} satisfies Record<string, readonly FieldDef[]>

function LogsSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(OPERATION_FIELDS.logs)
  return (
    <OptionSection id="logs" title={lt('opsec.logs')} hint={lt('opsec.logsHint')} form={form}>
      <OptionFields form={form} />
      <p className="tg-opt__note">
        {t('options.logCleaning')} <Link to="/log">{t('options.toLogs')}</Link>
      </p>
    </OptionSection>
  )
}

/** The ratio JSON fields, and the reset of the model ratios (POST /api/option/rest_model_ratio). */
function RatiosSection() {
  const t = useT()
  const lt = useLabels()
  const form = useOptionForm(OPERATION_FIELDS.ratios)
  const { reload } = useOptions()
  const [dialog, confirm] = useConfirm()
  const [resetting, setResetting] = useState(false)

  const reset = async () => {
    if (!(await confirm(t('options.resetRatiosConfirm'), t('options.resetRatios')))) return
    setResetting(true)
    try {
      await resetModelRatios()
      toast.success(t('options.resetRatiosDone'))
      form.discard(['ModelRatio', 'CompletionRatio'])
      reload()
    } catch {
      // the API client has shown why
    } finally {
      setResetting(false)
    }
  }

  return (
    <OptionSection
      id="ratios"
      title={lt('opsec.ratios')}
      hint={lt('opsec.ratiosHint')}
      form={form}
      actions={
        <sl-button variant="default" outline onClick={reset} loading={resetting} data-reset-ratios="">
          {t('options.resetRatios')}
        </sl-button>
      }
    >
      <OptionFields form={form} />
      {dialog}
    </OptionSection>
  )
}

function OperationForms() {
  const lt = useLabels()
  return (
    <>
      <SimpleSection id="general" title={lt('opsec.general')} hint={lt('opsec.generalHint')} fields={OPERATION_FIELDS.general} />
      <SimpleSection id="drawing" title={lt('opsec.drawing')} hint={lt('opsec.drawingHint')} fields={OPERATION_FIELDS.drawing} />
      <SimpleSection id="sensitive" title={lt('opsec.sensitive')} hint={lt('opsec.sensitiveHint')} fields={OPERATION_FIELDS.sensitive} />
      <LogsSection />
      <SimpleSection id="dashboard" title={lt('opsec.dashboard')} hint={lt('opsec.dashboardHint')} fields={OPERATION_FIELDS.dashboard} />
      <SimpleSection
        id="monitoring"
        title={lt('opsec.monitoring')}
        hint={lt('opsec.monitoringHint')}
        fields={OPERATION_FIELDS.monitoring}
      />
      <SimpleSection id="quota" title={lt('opsec.quota')} hint={lt('opsec.quotaHint')} fields={OPERATION_FIELDS.quota} />
      <RatiosSection />
    </>
  )
}

/**
 * The operation settings tab (super administrator): general settings, drawing, sensitive-word
 * filter, logs, data dashboard, monitoring, quota and ratios. Each form saves its changed keys.
 */
export function OperationTab() {
  return (
    <OptionsTab id="operation">
      <OperationForms />
    </OptionsTab>
  )
}
