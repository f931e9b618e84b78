/** The time the console believes it is; tests replace it to check date-bound behaviour. */
let clock: () => Date = () => new Date()

export function now(): Date {
  return clock()
}

/** Replaces the clock (null restores the real one). */
export function setClock(fn: (() => Date) | null): void {
  clock = fn ?? (() => new Date())
}
