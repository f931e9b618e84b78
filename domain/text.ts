/** How the forms and the wire read lists and whole numbers typed as text (spec section 5). */

/**
 * A comma list (models, groups, model limits) as a clean array: entries trimmed, blanks dropped,
 * each entry once, in the order first given.
 */
export function splitList(text: string, separator: string | RegExp = ','): string[] {
  const seen = new Set<string>()
  for (const part of text.split(separator)) {
    const entry = part.trim()
    if (entry) seen.add(entry)
  }
  return [...seen]
}

/** A number field "parsed as an integer": the leading whole number of the text, NaN when there is none. */
export const parseInteger = (text: string): number => Number.parseInt(text.trim(), 10)
