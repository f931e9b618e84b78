/**
 * Accessibility: axe-core over every element, in light and dark, English and Chinese, signed out for
 * the public ones and as root for the rest. A serious or critical violation fails the test, with the
 * rule, the impact and the offending nodes in the message.
 */
import { expect } from '@esm-bundle/chai'
import type { AxeResults, RunOptions } from 'axe-core'
import '../../elements/index.ts'
import { setLocale, setTheme } from '../../src/stores/prefs.ts'
import { cleanup, loadStatus, mount, signInAs, waitFor } from './helpers.ts'

const PUBLIC = ['tollgate-login', 'tollgate-register', 'tollgate-reset', 'tollgate-pricing']
const SIGNED_IN = [
  'tollgate-console',
  'tollgate-tokens',
  'tollgate-logs',
  'tollgate-dashboard',
  'tollgate-channels',
  'tollgate-users',
  'tollgate-redemptions',
  'tollgate-settings',
  'tollgate-topup',
  'tollgate-tasks',
  'tollgate-pricing',
]

type Axe = { run(context: Element, options: RunOptions): Promise<AxeResults> }

/** axe-core ships as a classic script that defines `window.axe`: load it once, as a page would. */
let axeLoaded: Promise<Axe> | null = null
function loadAxe(): Promise<Axe> {
  return (axeLoaded ??= new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = '/node_modules/axe-core/axe.min.js'
    script.onload = () => resolve((window as unknown as { axe: Axe }).axe)
    script.onerror = () => reject(new Error('axe-core could not be loaded'))
    document.head.append(script)
  }))
}

/** Serious and critical violations inside the element, as readable lines. */
async function violations(el: HTMLElement): Promise<string[]> {
  const axe = await loadAxe()
  const result = await axe.run(el, { resultTypes: ['violations'] })
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join(', ')}`)
}

/** Mounted, with its data loaded: no skeleton and no busy table left. */
async function settled(tag: string): Promise<HTMLElement> {
  const el = await mount(`<${tag}></${tag}>`)
  await waitFor(() => !el.shadowRoot!.querySelector('sl-skeleton, [aria-busy="true"]'), `${tag} to finish loading`, 3000).catch(() => {
    console.log(`${tag}: still busy`, el.shadowRoot!.querySelector('sl-skeleton, [aria-busy="true"]')?.outerHTML.slice(0, 200))
  })
  await new Promise((r) => setTimeout(r, 50))
  return el
}

/** A host page in that theme: a dark site paints a dark page behind the elements. */
function looksLike(theme: 'light' | 'dark', locale: 'en' | 'zh'): void {
  setTheme(theme)
  setLocale(locale)
  document.body.style.background = theme === 'dark' ? '#18181b' : '#ffffff'
}

const looks = [
  { theme: 'light', locale: 'en' },
  { theme: 'dark', locale: 'en' },
  { theme: 'light', locale: 'zh' },
  { theme: 'dark', locale: 'zh' },
] as const

describe('accessibility (axe-core: no serious or critical violation)', () => {
  afterEach(async () => {
    document.body.style.background = ''
    await cleanup()
  })

  for (const { theme, locale } of looks) {
    for (const tag of PUBLIC) {
      it(`<${tag}> signed out, ${theme}, ${locale}`, async () => {
        await loadStatus()
        looksLike(theme, locale)
        const found = await violations(await settled(tag))
        expect(found, found.join('\n')).to.deep.equal([])
      })
    }
    for (const tag of SIGNED_IN) {
      it(`<${tag}> as root, ${theme}, ${locale}`, async () => {
        await loadStatus()
        await signInAs('root', '123456')
        looksLike(theme, locale)
        const found = await violations(await settled(tag))
        expect(found, found.join('\n')).to.deep.equal([])
      })
    }
  }
})
