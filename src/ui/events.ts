/**
 * What a Shoelace control's event says, read while the event is live: once it is over, its target
 * (inside a shadow root) is gone.
 */
export const valueOf = (e: Event): string => (e.target as HTMLInputElement).value ?? ''
export const checkedOf = (e: Event): boolean => (e.target as HTMLInputElement).checked

/** The input handler of one field of a form held in state: the field takes the control's value. */
export const setField =
  <F>(setForm: (change: (f: F) => F) => void, key: keyof F) =>
  (e: Event): void => {
    const value = valueOf(e)
    setForm((f) => ({ ...f, [key]: value }))
  }
