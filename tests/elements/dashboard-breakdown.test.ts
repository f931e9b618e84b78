/**
 * The dashboard's breakdowns against the real server: the top N and "others" by model, user and
 * token (buckets put in place by wtr commands), for administrators and for a user's own usage.
 */
import { expect } from '@esm-bundle/chai'
import '../../elements/dashboard.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { setClock } from '../../src/stores/clock.ts'
import { toLocalInput } from '../../src/ui/datetime.ts'
import { $, $$, cleanup, fill, mount, registerAndSignIn, serverCommand, signInAs, submit, waitFor } from './helpers.ts'

const at = (day: number, hour: number) => {
  const s = Math.floor(new Date(2025, 5, day, hour).getTime() / 1000)
  return s - (s % 3600)
}
const localDay = (day: number) => Math.floor(new Date(2025, 5, day).getTime() / 1000)

/** The breakdown's key table: label → [requests, quota]. */
function keys(el: HTMLElement): Array<[string, number, number]> {
  return $$(el, 'table[data-table="breakdown-models"] tbody tr[data-model]').map((row) => [
    row.getAttribute('data-model')!,
    Number(row.querySelector('[data-count]')!.getAttribute('data-count')),
    Number(row.querySelector('[data-quota]')!.getAttribute('data-quota')),
  ])
}

async function dashboard(start: number, end: number): Promise<HTMLElement> {
  const el = await mount('<tollgate-dashboard></tollgate-dashboard>')
  await waitFor(() => $(el, '[data-dashboard]'), 'the dashboard')
  await fill(el, 'start', toLocalInput(start))
  await fill(el, 'end', toLocalInput(end))
  await submit(el)
  await waitFor(() => $(el, '[data-dashboard]')?.getAttribute('data-answered')?.startsWith(`${start}-${end}-`), 'the answer')
  return el
}

/** Picks a dimension and waits for the breakdown that answers it. */
async function breakDown(el: HTMLElement, by: string, top = 8): Promise<void> {
  const button = await waitFor(() => $<HTMLElement>(el, `sl-radio-button[data-by="${by}"]`), `the ${by} button`)
  button.click()
  await waitFor(() => $(el, '[data-breakdown]')?.getAttribute('data-answered')?.startsWith(`${by}-hour-${top}-`), `the ${by} breakdown`)
  await waitFor(() => $(el, 'table[data-table="breakdown-models"]'), 'the breakdown table')
}

async function done(): Promise<void> {
  await serverCommand('tg-quota-data', { rows: [] })
  await serverCommand('tg-quota-dims', { rows: [] })
  await cleanup()
  const prefs = $prefs as unknown as { setKey(key: string, value: undefined): void }
  for (const key of ['status', 'user']) prefs.setKey(key, undefined)
}

describe('<tollgate-dashboard> breakdowns', () => {
  afterEach(done)

  it('shows an administrator the top models, users and tokens with the rest as others', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    const alice = (await registerAndSignIn()).username
    const bob = (await registerAndSignIn()).username
    await signInAs('root', '123456')
    const models = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']
    await serverCommand('tg-quota-data', {
      rows: models.map((m, i) => ({
        username: i % 2 ? bob : alice,
        model_name: m,
        created_at: at(10, 10 + (i % 3)),
        count: 1,
        quota: 1000 - i * 10,
        token_used: 5,
      })),
    })
    await serverCommand('tg-quota-dims', {
      rows: [
        { owner: alice, token: 'laptop', created_at: at(10, 10), count: 2, quota: 700 },
        { owner: bob, token: 'ci', created_at: at(10, 11), count: 3, quota: 900 },
      ],
    })
    const el = await dashboard(localDay(9), localDay(12))
    await breakDown(el, 'model')
    const top = keys(el)
    expect(top.length).to.equal(9, 'the top 8 and others')
    expect(top.slice(0, 2)).to.deep.equal([
      ['m1', 1, 1000],
      ['m2', 1, 990],
    ])
    expect(top.find(([k]) => k === 'Others')).to.deep.equal(['Others', 2, 910 + 920])
    const figure = $(el, '[data-breakdown] figure[data-chart]')!
    expect(figure.textContent).to.include('Quota by Model')

    await breakDown(el, 'user')
    expect(keys(el).map(([k]) => k)).to.deep.equal([alice, bob])

    // the others are everyone's requests less the top tokens': here the ten model rows above, of
    // which the two token rows account for five
    await breakDown(el, 'token')
    expect(keys(el).map(([k, n]) => [k.replace(/ #\d+$/, ''), n])).to.deep.equal([
      ['ci', 3],
      ['laptop', 2],
      ['Others', 5],
    ])
    expect($(el, 'sl-radio-button[data-by="channel"]')).to.not.equal(null)
  })

  it('shows a user only their own models and tokens', async () => {
    setClock(() => new Date(2025, 5, 11, 12, 30))
    const other = (await registerAndSignIn()).username
    const me = (await registerAndSignIn()).username
    await serverCommand('tg-quota-data', {
      rows: [
        { username: me, model_name: 'mine', created_at: at(10, 10), count: 1, quota: 100, token_used: 1 },
        { username: other, model_name: 'theirs', created_at: at(10, 10), count: 1, quota: 100, token_used: 1 },
      ],
    })
    await serverCommand('tg-quota-dims', {
      rows: [
        { owner: me, token: 'phone', created_at: at(10, 10), count: 1, quota: 100 },
        { owner: other, token: 'secret', created_at: at(10, 10), count: 4, quota: 400 },
      ],
    })
    await signInAs(me, 'password123')
    const el = await dashboard(localDay(9), localDay(12))
    await breakDown(el, 'model')
    expect(keys(el).map(([k]) => k)).to.deep.equal(['mine'])
    expect($$(el, 'sl-radio-button[data-by]').map((b) => b.getAttribute('data-by'))).to.deep.equal(['model', 'token'])
    await breakDown(el, 'token')
    expect(keys(el).map(([k]) => k.replace(/ #\d+$/, ''))).to.deep.equal(['phone'])
  })
})
