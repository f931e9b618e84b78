/** A message key shown as text (`login.submit`, `field.username`): what a missing word looks like. */
export const KEY = /\b(?:common|field|placeholder|login|auth|error|nav)\.[a-zA-Z]+\b/

/** The element's words: its text (styles left out) and the labels and placeholders of its fields. */
function visibleText(root: ShadowRoot): string {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT)
  let text = ''
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node instanceof Element) {
      for (const name of ['label', 'placeholder']) if (node.hasAttribute(name)) text += ` ${node.getAttribute(name)} `
    } else if (!node.parentElement?.closest('style')) text += node.nodeValue
  }
  return text.replace(/\s+/g, ' ').trim()
}

/** Every non-empty text the element shows, from now until stop(): one entry per change of its shadow root. */
export function recordTexts(el: HTMLElement): { seen: string[]; stop(): void } {
  const root = el.shadowRoot
  if (!root) throw new Error('the element has no shadow root yet')
  const seen: string[] = []
  const note = () => {
    const text = visibleText(root)
    if (text && seen.at(-1) !== text) seen.push(text)
  }
  const observer = new MutationObserver(note)
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true })
  note()
  return { seen, stop: () => observer.disconnect() }
}
