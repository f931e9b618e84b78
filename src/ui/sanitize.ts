import DOMPurify from 'dompurify'

/**
 * Admin-written HTML (notice, home page, about, footer) made safe to render: no scripts, no
 * style sheets or style attributes (a footer could otherwise lay a fixed full-screen overlay
 * over every page, issue 10 item 9), no forms.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'] })
}

/** True when the admin gave a whole page to embed (home page or about page set to a URL). */
export function isHttpUrl(text: string): boolean {
  const value = text.trim()
  if (!/^https?:\/\/\S+$/i.test(value)) return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}
