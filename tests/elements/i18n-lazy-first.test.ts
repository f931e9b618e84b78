/**
 * An element asked for Chinese on a page that has no Chinese words yet (they are a lazy chunk,
 * src/i18n/t.ts) shows nothing until they are here: its first text is Chinese, never English,
 * never a key. Alone in its file, so the words are not loaded by an earlier test.
 */
import { expect } from '@esm-bundle/chai'
import '../../elements/login.ts'
import { $dictionaries } from '../../src/i18n/t.ts'
import { cleanup, waitForText } from './helpers.ts'
import { recordTexts, KEY } from './i18n-helpers.ts'

describe('the first text of a Chinese element', () => {
  afterEach(cleanup)

  it('is Chinese: no English and no key shows while the words load', async () => {
    expect($dictionaries.get().zh, 'the Chinese words are not loaded yet').to.equal(undefined)
    const el = document.createElement('tollgate-login')
    el.setAttribute('lang', 'zh-CN')
    document.body.append(el)
    const texts = recordTexts(el)
    await waitForText(el, '还没有账户？')
    texts.stop()
    el.remove()
    expect(texts.seen.length).to.be.greaterThan(0)
    for (const text of texts.seen) {
      expect(text).to.not.match(KEY)
      expect(text).to.not.include('Username')
      expect(text).to.not.include('No account yet?')
    }
  })
})
