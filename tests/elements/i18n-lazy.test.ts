/**
 * The Chinese words are a chunk of their own (src/i18n/t.ts): a page in English never loads them,
 * and switching to Chinese at run time keeps the screen (and what was typed) in English until the
 * words are here, then shows Chinese, never a key. The cold start in Chinese is i18n-lazy-first.test.ts.
 */
import { expect } from '@esm-bundle/chai'
import '../../elements/login.ts'
import { $dictionaries } from '../../src/i18n/t.ts'
import { $prefs, setLocale } from '../../src/stores/prefs.ts'
import { cleanup, fill, inputNamed, mount, waitForText } from './helpers.ts'
import { recordTexts, KEY } from './i18n-helpers.ts'

const chineseLoaded = () => performance.getEntriesByType('resource').some((e) => e.name.includes('zh-CN'))

describe('the Chinese words load only when Chinese is wanted', () => {
  afterEach(cleanup)

  it('an element on an English page renders without loading them', async () => {
    expect($prefs.get().locale, 'this page starts in English').to.equal('en')
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitForText(el, 'No account yet?')
    expect($dictionaries.get().zh).to.equal(undefined)
    expect(chineseLoaded()).to.equal(false)
  })

  it('a switch to Chinese keeps the screen in English until the words are here, then Chinese, never a key', async () => {
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitForText(el, 'No account yet?')
    await fill(el, 'username', 'someone')
    const input = inputNamed(el, 'username')
    const texts = recordTexts(el)
    setLocale('zh')
    await waitForText(el, '还没有账户？')
    texts.stop()
    expect(chineseLoaded()).to.equal(true)
    for (const text of texts.seen) {
      expect(text).to.not.match(KEY)
      // one language at a time: English words or Chinese ones
      expect(text.includes('No account yet?') && text.includes('还没有账户？'), text).to.equal(false)
    }
    // the same form, with what was typed: the switch did not remount the screen
    expect(inputNamed(el, 'username')).to.equal(input)
    expect((input as HTMLInputElement).value).to.equal('someone')
  })
})
