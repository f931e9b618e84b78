// What the settings-admin element tests share (split from settings-admin.test.ts by topic).
import { createElement as h } from 'react'
import { defineElement, ElementShell, type AdapterProps } from '../../elements/define.ts'
import '../../elements/settings.ts'
import { OperationTab } from '../../src/screens/settings/operation-tab.tsx'
import { SystemTab } from '../../src/screens/settings/system-tab.tsx'
import { OtherTab } from '../../src/screens/settings/other-tab.tsx'
import { $, $$, cleanup, mount, signInAs, sleep, waitFor } from './helpers.ts'

/**
 * The super-administrator settings tabs (operation, system, other) against the real server.
 * The tabs are plain components that <tollgate-settings> renders; here they are mounted alone in a
 * test-only element (same shell, theme and CSS as every Tollgate element), one tab per element.
 */

export const TABS = { operation: OperationTab, system: SystemTab, other: OtherTab } as const
export type TabName = keyof typeof TABS

defineElement(
  'tg-test-admin-tab',
  ({ container, tab }: AdapterProps & { tab?: TabName }) =>
    h(ElementShell, { container, children: () => (tab && TABS[tab] ? h(TABS[tab]) : null) }),
  { tab: 'string' },
)

/** Every option key of spec section 3. */
export const SPEC_KEYS = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'TelegramOAuthEnabled',
  'TurnstileCheckEnabled',
  'RegisterEnabled',
  'EmailDomainRestrictionEnabled',
  'EmailAliasRestrictionEnabled',
  'SMTPSSLEnabled',
  'Notice',
  'SystemName',
  'Logo',
  'Footer',
  'About',
  'HomePageContent',
  'ServerAddress',
  'EmbedOrigins',
  'WorkerUrl',
  'WorkerValidKey',
  'PayAddress',
  'EpayId',
  'EpayKey',
  'CustomCallbackAddress',
  'Price',
  'MinTopUp',
  'TopupGroupRatio',
  'SMTPServer',
  'SMTPPort',
  'SMTPAccount',
  'SMTPFrom',
  'SMTPToken',
  'GitHubClientId',
  'GitHubClientSecret',
  'WeChatServerAddress',
  'WeChatServerToken',
  'WeChatAccountQRCodeImageURL',
  'TurnstileSiteKey',
  'TurnstileSecretKey',
  'EmailDomainWhitelist',
  'TelegramBotToken',
  'TelegramBotName',
  'TopUpLink',
  'ChatLink',
  'ChatLink2',
  'QuotaPerUnit',
  'RetryTimes',
  'CapPools',
  'SunoCapStr',
  'StopWord',
  'SunoServer',
  'SunoVersion',
  'SunoProxy',
  'SunoMe',
  'UserTimeEnabled',
  'DisplayInCurrencyEnabled',
  'DisplayTokenStatEnabled',
  'DefaultCollapseSidebar',
  'DrawingEnabled',
  'MjNotifyEnabled',
  'MjAccountFilterEnabled',
  'MjForwardUrlEnabled',
  'MjModeClearEnabled',
  'MjCDNProxy',
  'MjTranslate',
  'ViggleProEnabled',
  'CheckSensitiveEnabled',
  'CheckSensitiveOnPromptEnabled',
  'SensitiveWords',
  'LogConsumeEnabled',
  'DataExportEnabled',
  'DataExportInterval',
  'DataExportDefaultTime',
  'ChannelDisableThreshold',
  'QuotaRemindThreshold',
  'AutomaticDisableChannelEnabled',
  'AutomaticEnableChannelEnabled',
  'QuotaForNewUser',
  'PreConsumedQuota',
  'QuotaForInviter',
  'QuotaForInvitee',
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'VmodelMap',
  'SunoLimit',
]

export async function asRoot(): Promise<void> {
  await signInAs('root', '123456')
}

/** Mounts one tab and waits for its forms (the options loaded). */
export async function tab(name: TabName): Promise<HTMLElement> {
  const el = await mount(`<tg-test-admin-tab tab="${name}"></tg-test-admin-tab>`)
  await waitFor(() => $(el, '[data-section]'), `the ${name} forms`)
  return el
}

export const section = (el: HTMLElement, id: string) => $(el, `[data-section="${id}"]`)!

export async function save(el: HTMLElement, id: string): Promise<void> {
  const button = await waitFor(
    () => $<HTMLElement & { updateComplete: Promise<unknown> }>(el, `sl-button[data-save="${id}"]`),
    `Save of ${id}`,
  )
  await button.updateComplete
  button.click()
  await sleep(0)
}

/** Types into the sl-textarea (or sl-input) named `name` and leaves it (sl-blur). */
export async function fillArea(el: HTMLElement, name: string, value: string, leave = true): Promise<void> {
  const area = await waitFor(() => $$<HTMLTextAreaElement>(el, 'sl-textarea, sl-input').find((a) => a.name === name), `field ${name}`)
  area.value = value
  area.dispatchEvent(new CustomEvent('sl-input', { bubbles: true, composed: true }))
  await sleep(50)
  if (leave) {
    area.dispatchEvent(new CustomEvent('sl-blur', { bubbles: true, composed: true }))
    await sleep(50)
  }
}

export function switchOf(el: HTMLElement, key: string): HTMLElement & { checked: boolean; disabled: boolean } {
  return $(el, `sl-switch[data-option="${key}"]`) as HTMLElement & { checked: boolean; disabled: boolean }
}

export async function toggle(el: HTMLElement, key: string): Promise<void> {
  const sw = await waitFor(() => switchOf(el, key), `switch ${key}`)
  await (sw as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
  sw.click()
  await sleep(50)
}

/** What GET /api/option/ answers now. */
export async function readOptions(): Promise<Record<string, string>> {
  const body = await fetch('/api/option/').then((r) => r.json())
  return Object.fromEntries((body.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]))
}

/** Records the bodies of the PUT /api/option/ calls the page makes. */
export function recordPuts(): { puts: Array<{ key: string; value: string }>; stop: () => void } {
  const original = window.fetch
  const puts: Array<{ key: string; value: string }> = []
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    if (method === 'PUT' && url.pathname === '/api/option/' && typeof init?.body === 'string') puts.push(JSON.parse(init.body))
    return original(input, init)
  }
  return { puts, stop: () => (window.fetch = original) }
}

export let recorder: ReturnType<typeof recordPuts> | null = null
export function puts() {
  recorder ??= recordPuts()
  return recorder.puts
}

/** Signs in as root, mounts one tab and starts recording the PUT /api/option/ calls (read them with puts()). */
export async function rootTab(name: TabName): Promise<HTMLElement> {
  await asRoot()
  const el = await tab(name)
  puts()
  return el
}

export async function done(): Promise<void> {
  recorder?.stop()
  recorder = null
  await cleanup()
}

/** The help text an sl-input or sl-textarea shows (hint or error). */
export function inputHelp(el: HTMLElement, name: string): string {
  const field = $$<HTMLElement & { helpText: string; name: string }>(el, 'sl-input, sl-textarea, sl-radio-group').find(
    (f) => f.name === name,
  )
  return field?.helpText ?? ''
}

export function inputValue(el: HTMLElement, name: string): string | undefined {
  return $$<HTMLInputElement>(el, 'sl-input').find((i) => i.name === name)?.value
}

export function inputNamedFocus(el: HTMLElement, name: string): void {
  $$<HTMLInputElement>(el, 'sl-input')
    .find((i) => i.name === name)!
    .focus()
}
