import { expect } from '@esm-bundle/chai'
import { byteSize, formatQuota, formatQuotaTicks } from '../../src/ui/format.ts'
import { compactNumber } from '../../domain/quota.ts'
import { isHttpUrl, sanitizeHtml } from '../../src/ui/sanitize.ts'

describe('quota display (spec section 9)', () => {
  it("shows '$' + quota / quota_per_unit with two decimals when the site displays currency", () => {
    const status = { display_in_currency: true, quota_per_unit: 500000 }
    expect(formatQuota(500000, status)).to.equal('$1.00')
    expect(formatQuota(1234567, status)).to.equal('$2.47')
    expect(formatQuota(0, status)).to.equal('$0.00')
    expect(formatQuota(1000, { display_in_currency: true, quota_per_unit: 1000 })).to.equal('$1.00')
  })

  it('uses the default 500000 per unit when the cached status has none', () => {
    expect(formatQuota(250000, { display_in_currency: true, quota_per_unit: 0 })).to.equal('$0.50')
  })

  it('is compact otherwise: k above 9999, M from a million, B from a billion', () => {
    const status = { display_in_currency: false, quota_per_unit: 500000 }
    expect(formatQuota(9999, status)).to.equal('9999')
    expect(formatQuota(10000, status)).to.equal('10k')
    expect(formatQuota(12345, status)).to.equal('12.3k')
    expect(formatQuota(2500000, status)).to.equal('2.5M')
    expect(formatQuota(3000000000, status)).to.equal('3B')
    expect(compactNumber(-20000)).to.equal('-20k')
  })
})

describe('admin HTML', () => {
  it('is sanitised: scripts and event handlers go, markup stays', () => {
    const clean = sanitizeHtml('<p onclick="x()">Hi <a href="javascript:alert(1)">x</a><script>alert(1)</script><b>there</b></p>')
    expect(clean).to.equal('<p>Hi <a>x</a><b>there</b></p>')
  })

  it('drops style attributes, so a footer cannot lay a fixed overlay over the page (issue 10 item 9)', () => {
    const overlay = '<div style="position:fixed;inset:0;z-index:99999;background:#fff">Pay here</div><p style="color:red">x</p>'
    expect(sanitizeHtml(overlay)).to.equal('<div>Pay here</div><p>x</p>')
  })

  it('tells a URL (shown in a frame) from HTML', () => {
    expect(isHttpUrl('https://example.com/home')).to.equal(true)
    expect(isHttpUrl(' http://example.com ')).to.equal(true)
    expect(isHttpUrl('<p>https://example.com</p>')).to.equal(false)
    expect(isHttpUrl('javascript:alert(1)')).to.equal(false)
  })
})

describe('quota axis ticks (data dashboard)', () => {
  it('gives ticks enough decimals to tell small amounts apart', () => {
    const currency = { display_in_currency: true, quota_per_unit: 500000 }
    // steps of 50 quota are $0.0001: two decimals would print '$0.00' for every tick
    expect(formatQuotaTicks([0, 50, 100, 150], currency)).to.deep.equal(['$0.0000', '$0.0001', '$0.0002', '$0.0003'])
    expect(formatQuotaTicks([0, 500000, 1000000], currency)).to.deep.equal(['$0.00', '$1.00', '$2.00'])
    expect(formatQuotaTicks([0, 20000, 40000], { display_in_currency: false, quota_per_unit: 500000 })).to.deep.equal(['0', '20k', '40k'])
  })
})

describe('byte sizes (the log export progress)', () => {
  it('reads bytes below 1 KB, then KB and MB with one decimal', () => {
    expect([0, 1023, 1024, 1536, 1024 * 1024 - 1, 1024 * 1024, 7.9 * 1024 * 1024].map(byteSize)).to.deep.equal([
      '0 B',
      '1023 B',
      '1.0 KB',
      '1.5 KB',
      '1024.0 KB',
      '1.0 MB',
      '7.9 MB',
    ])
  })
})
