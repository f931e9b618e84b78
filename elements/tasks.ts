import { createElement as h } from 'react'
import { TasksScreen, TASK_KINDS, type TaskKind } from '../src/screens/tasks/tasks-screen.tsx'
import { defineElement, ElementShell, type AdapterProps } from './define.ts'

interface Props extends AdapterProps {
  lang?: string
  apiBase?: string
  platform?: string
}

/** The platform attribute as a list name; `ideogram` is the Ideogram list (route /ideo). */
export function platformOf(value: string | undefined): TaskKind {
  const v = (value ?? '').trim().toLowerCase()
  if (v === 'ideogram') return 'ideo'
  if (v === 'mj') return 'midjourney'
  return (TASK_KINDS as readonly string[]).includes(v) ? (v as TaskKind) : 'midjourney'
}

function TasksAdapter({ container, lang, apiBase, platform }: Props) {
  const kind = platformOf(platform)
  // a new platform is a new list: remount so filters and rows start afresh
  return h(ElementShell, { container, lang, apiBase, children: () => h(TasksScreen, { kind, key: kind }) })
}

/**
 * @summary A task list of one provider kind: filters (task id, time range from 30 days back to
 * 1 h ahead), status labels, action kinds, duration colours, previews of images, audio and video,
 * failure reasons and a dialog for long prompts, loaded page by page. A signed-in user sees their
 * own tasks; an administrator sees everyone's, with the channel filter and column, the submit
 * result and, on the Midjourney list, the callback notice while the callback is off.
 * @tag tollgate-tasks
 * @attr {string} platform - `midjourney` (default), `suno`, `luma`, `lumav2`, `viggle`, `runway`, `pika`, `kling` or `ideogram`
 * @attr {string} lang - forces the language (`en` or `zh-CN`); otherwise the user's choice
 * @attr {string} api-base - the gateway's address when it is not this page's origin
 * @fires {CustomEvent<{to: string}>} tollgate-navigate - cancelable; the element wants another console page (/login when signed out)
 * @fires {CustomEvent<{}>} tollgate-logout - the user signed out anywhere on the page (an element, signOut(), an expired session)
 * @fires {CustomEvent<{redirect: string}>} tollgate-session-expired - the server answered 401 (on every element, then tollgate-logout)
 * @fires {CustomEvent<{status: number, kind: string, message: string}>} tollgate-error - a request of this element failed (`kind`: refused (status 200), http, network, invalid)
 * @csspart root - the element's whole content (every element has it)
 * @cssprop --tollgate-brand - one brand colour for the whole primary scale (buttons, links, focus rings); every element
 * @csspart filters - the filter form
 * @csspart table - the scrolling table region
 * @csspart empty-state - shown when no task matches
 */
export const TollgateTasks = defineElement('tollgate-tasks', TasksAdapter, { lang: 'string', apiBase: 'string', platform: 'string' })

declare global {
  interface HTMLElementTagNameMap {
    'tollgate-tasks': HTMLElement & { lang: string; apiBase?: string; platform?: string }
  }
}
