/**
 * The XSS corpus of the attack run (issue 10): forty payloads, each of which calls `_x(<its
 * number>)` if the browser ever runs it. They cover the classic vectors (script, event
 * handlers, javascript: and data: URLs in every attribute that takes one), sanitiser escapes
 * (mutation XSS through math/noscript/style parsing), attribute break-outs for text fields,
 * template-syntax strings, and the page takeovers that are not scripts (a fixed overlay,
 * a refresh, a base URL).
 *
 * `findDangerousMarkup` walks a page, shadow roots included, for what a sanitiser must never
 * let through even when the page's CSP would stop it running: an embedding site has no CSP of ours.
 */

export const XSS_PAYLOADS: readonly string[] = [
  '<script>_x(1)</script>',
  '<img src=x onerror=_x(2)>',
  '<svg onload=_x(3)>',
  '<svg><script>_x(4)</script></svg>',
  '<iframe src="javascript:_x(5)"></iframe>',
  '<iframe srcdoc="<script>parent._x(6)</script>"></iframe>',
  '<a href="javascript:_x(7)">a7</a>',
  '<a href="JaVaScRiPt:_x(8)">a8</a>',
  '<a href="&#106;avascript:_x(9)">a9</a>',
  '<a href=" &#14; javascript:_x(10)">a10</a>',
  '<body onload=_x(11)>',
  '<details open ontoggle=_x(12)>d12</details>',
  '<input autofocus onfocus=_x(13)>',
  '<video><source onerror=_x(14)></video>',
  '<audio src=x onerror=_x(15)></audio>',
  '<object data="javascript:_x(16)"></object>',
  '<embed src="javascript:_x(17)">',
  '<form action="javascript:_x(18)"><button>f18</button></form>',
  '<button formaction="javascript:_x(19)">b19</button>',
  '<math><mtext><table><mglyph><style><img src=x onerror=_x(20)>',
  '<noscript><p title="</noscript><img src=x onerror=_x(21)>">',
  '<style>@import "javascript:_x(22)";</style>',
  '<div style="position:fixed;inset:0;z-index:99999;background:red">overlay 23</div>',
  '<meta http-equiv="refresh" content="0;url=javascript:_x(24)">',
  '<base href="javascript:_x(25)//">',
  '<a href="data:text/html,<script>_x(26)</script>">a26</a>',
  '<img src="x" alt="" onerror="_x&#40;27&#41;">',
  '"><img src=x onerror=_x(28)>',
  "'><svg onload=_x(29)>",
  '</textarea><script>_x(30)</script>',
  '<svg><a xlink:href="javascript:_x(31)"><text y="20">s31</text></a></svg>',
  '<svg><animate onbegin=_x(32) attributeName=x dur=1s></svg>',
  '<svg><set attributeName=onmouseover to=_x(33)></svg>',
  '<marquee onstart=_x(34)>m34</marquee>',
  '<img src=x:x onerror=_x(35)//',
  '<x onclick=_x(36) contenteditable>x36</x>',
  "{{constructor.constructor('_x(37)')()}}",
  '${_x(38)}',
  '<img srcset="x" onerror=_x(39)>',
  '<svg><foreignObject><iframe src="javascript:_x(40)"></iframe></foreignObject></svg>',
]

/** Payloads that fit a field of at most `max` characters (names, display names). */
export const shortPayloads = (max: number) => XSS_PAYLOADS.filter((p) => p.length <= max)

/** The payloads packed into as few values of at most `max` characters as they fit in. */
export function packedPayloads(max: number): string[] {
  const out: string[] = []
  for (const p of shortPayloads(max)) {
    const last = out.length ? out[out.length - 1]! : null
    if (last !== null && last.length + 1 + p.length <= max) out[out.length - 1] = `${last} ${p}`
    else out.push(p)
  }
  return out
}

/** Every payload in one value (for the fields that take admin HTML, at most `max` characters). */
export function allPayloads(max = 60_000): string {
  return XSS_PAYLOADS.join('\n').slice(0, max)
}

/**
 * Runs in the page: what is on it, shadow roots included, that would run or take over the page
 * without a CSP. Returns one line per finding.
 */
export function findDangerousMarkup(): string[] {
  const found: string[] = []
  const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'srcdoc', 'poster', 'background']
  // browsers ignore leading controls and spaces and tabs or newlines inside a scheme: all are dropped here (stricter)
  const bad = (v: string) => /^(javascript|vbscript|data:text\/html)/i.test([...v].filter((ch) => ch.charCodeAt(0) > 0x20).join(''))
  const describe = (el: Element) =>
    `<${el.localName}${el.id ? '#' + el.id : ''}> in ${el.closest('[data-footer],[data-about-content],[data-home-content],.tg-prose')?.className ?? el.parentElement?.localName}`
  const visit = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase()
        if (name.startsWith('on')) found.push(`${describe(el)} has ${name}="${attr.value}"`)
        if (URL_ATTRS.includes(name) && bad(attr.value)) found.push(`${describe(el)} has ${name}="${attr.value}"`)
        if (name === 'srcdoc') found.push(`${describe(el)} has srcdoc`)
      }
      const tag = el.localName
      if (tag === 'script' && !(el as HTMLScriptElement).src) found.push(`inline <script> ${describe(el)}: ${el.textContent?.slice(0, 40)}`)
      if (tag === 'script' && (el as HTMLScriptElement).src && !(el as HTMLScriptElement).src.startsWith(location.origin))
        found.push(`foreign <script src=${(el as HTMLScriptElement).src}>`)
      if (['iframe', 'object', 'embed', 'base', 'frame', 'frameset'].includes(tag) && el.closest('.tg-prose'))
        found.push(`<${tag}> inside rendered HTML`)
      if (tag === 'meta' && el.getAttribute('http-equiv')) found.push(`<meta http-equiv=${el.getAttribute('http-equiv')}>`)
      if (tag === 'base') found.push('<base> element')
      if (el.closest('.tg-prose') && /fixed|sticky/i.test((el as HTMLElement).style?.position ?? ''))
        found.push(`${describe(el)} is position:${(el as HTMLElement).style.position}`)
      if (el.shadowRoot) visit(el.shadowRoot)
    }
  }
  visit(document)
  return found
}
