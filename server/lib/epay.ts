import { createHash, timingSafeEqual } from 'node:crypto'
import type { PaymentMethod } from '../../domain/wallet-rules.ts'

/** The console's payment method names and the epay `type` each stands for. */
export const EPAY_TYPES: Readonly<Record<PaymentMethod, string>> = { zfb: 'alipay', wx: 'wxpay' }

/**
 * The epay signature: the non-empty parameters other than sign and sign_type, sorted by name,
 * joined as `k=v&k=v` (values not URL-encoded), the merchant key appended, MD5 in lower-case hex.
 */
export function epaySign(params: Record<string, string | undefined>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex')
}

/** True when `params.sign` is the epay signature of the other parameters under `key`. */
export function epayVerify(params: Record<string, string | undefined>, key: string): boolean {
  const got = (params.sign ?? '').toLowerCase()
  if (!key || !/^[0-9a-f]{32}$/.test(got)) return false
  return timingSafeEqual(Buffer.from(epaySign(params, key)), Buffer.from(got))
}

/** The fields of the form the browser posts to `{PayAddress}/submit.php`. */
export function epayForm(
  fields: { pid: string; type: string; out_trade_no: string; notify_url: string; return_url: string; name: string; money: string },
  key: string,
): Record<string, string> {
  return { ...fields, sign: epaySign(fields, key), sign_type: 'MD5' }
}
