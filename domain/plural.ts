/**
 * Plural forms in a message, in the ICU MessageFormat subset our dictionaries use:
 * `{n, plural, =0 {…} one {…} other {…}}`, `#` standing for the number. The case is chosen by the
 * language's own rules (Intl.PluralRules): English has one and other, Chinese other alone.
 */

const CATEGORY = String.raw`=\d+|zero|one|two|few|many|other`
const PLURAL = new RegExp(String.raw`\{(\w+), plural,((?:\s*(?:${CATEGORY})\s*\{[^{}]*\})+)\s*\}`, 'g')
const CASE = new RegExp(String.raw`(${CATEGORY})\s*\{([^{}]*)\}`, 'g')

const rules = new Map<string, Intl.PluralRules>()

function rulesOf(locale: string): Intl.PluralRules {
  let r = rules.get(locale)
  if (!r) rules.set(locale, (r = new Intl.PluralRules(locale)))
  return r
}

/** Each plural block filled for its number in `locale` ('en', 'zh-CN' …); unknown names stay as they are. */
export function fillPlurals(text: string, params: Record<string, unknown>, locale: string): string {
  if (!text.includes(', plural,')) return text
  return text.replace(PLURAL, (whole, name: string, body: string) => {
    if (!(name in params)) return whole
    const n = Number(params[name])
    const cases = new Map([...body.matchAll(CASE)].map((c) => [c[1]!, c[2]!]))
    const chosen = cases.get(`=${n}`) ?? cases.get(rulesOf(locale).select(n)) ?? cases.get('other')
    return chosen === undefined ? whole : chosen.replace(/#/g, String(params[name]))
  })
}
