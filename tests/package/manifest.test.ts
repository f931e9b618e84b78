import { test } from 'node:test'
import assert from 'node:assert/strict'
import { attributeDrift, drift, parseElement, readElements } from '../../scripts/manifest.ts'

test('the manifest, the VS Code data and docs/elements agree with the element code', () => {
  assert.deepEqual(drift(), [])
})

test('every element module is described, with the shared attributes and events', () => {
  const docs = readElements()
  assert.ok(docs.length >= 15, `only ${docs.length} elements found`)
  for (const d of docs) {
    assert.match(d.tag, /^tollgate-[a-z-]+$/)
    assert.ok(d.summary.length > 20, `${d.tag} has no summary`)
    assert.ok(
      d.attributes.some((a) => a.name === 'api-base'),
      `${d.tag} documents no api-base`,
    )
    assert.ok(
      d.events.some((e) => e.name === 'tollgate-error'),
      `${d.tag} documents no tollgate-error`,
    )
  }
})

test('the drift check catches an attribute read but not documented, and the reverse', () => {
  const login = parseElement('login.ts')!
  assert.deepEqual(attributeDrift(login), [])
  assert.deepEqual(attributeDrift({ ...login, props: { ...login.props, pageSize: 'number' } }), [
    'tollgate-login: reads attribute "page-size" that its JSDoc lacks',
  ])
  assert.deepEqual(attributeDrift({ ...login, attributes: [...login.attributes, { name: 'theme', type: 'string', description: '' }] }), [
    'tollgate-login: JSDoc documents attribute "theme" that the element does not read',
  ])
  const typed = { ...login, props: { ...login.props, noLinks: 'string' } }
  assert.deepEqual(attributeDrift(typed), ['tollgate-login: attribute "no-links" is string in code, boolean in JSDoc'])
})
