/**
 * Preferences stored in a form this version does not know are read as the nearest it does: a
 * stored "zh-CN" (what a host page would write) once left every element blank.
 */
import './stored-bad-prefs.ts'
import { expect } from '@esm-bundle/chai'
import '../../elements/login.ts'
import { $prefs } from '../../src/stores/prefs.ts'
import { cleanup, mount, waitForText } from './helpers.ts'

describe('stored preferences this version does not know', () => {
  afterEach(cleanup)

  it('reads a stored "zh-CN" as Chinese and an unknown theme as the browser\'s, and the element draws', async () => {
    expect($prefs.get().locale).to.equal('zh')
    expect(['light', 'dark']).to.include($prefs.get().theme)
    const el = await mount('<tollgate-login></tollgate-login>')
    await waitForText(el, '还没有账户？')
  })

  it('reads one written later the same way', async () => {
    $prefs.setKey('locale', 'fr' as never)
    expect(['en', 'zh']).to.include($prefs.get().locale)
    $prefs.setKey('locale', 'zh-TW' as never)
    expect($prefs.get().locale).to.equal('zh')
    $prefs.setKey('theme', '' as never)
    expect(['light', 'dark']).to.include($prefs.get().theme)
  })
})
