import * as optionsApi from '../api/options.ts'
import { refreshStatus } from './status.ts'

/** GET /api/option/ (root): every option as key → value (secrets as ''); quiet for a read-back after a save. */
export const loadOptions = (quiet = false): Promise<Record<string, string>> => optionsApi.list(quiet)

/**
 * Saves options one PUT per key, one after the other (a later key may depend on an earlier one);
 * the keys that failed keep going. Refreshes the public status when something was saved.
 */
export async function saveOptions(
  values: ReadonlyArray<[string, string]>,
): Promise<{ done: string[]; failed: Array<{ key: string; message: string }> }> {
  const done: string[] = []
  const failed: Array<{ key: string; message: string }> = []
  for (const [key, value] of values) {
    try {
      await optionsApi.update(key, value)
      done.push(key)
    } catch (e) {
      failed.push({ key, message: (e as Error).message })
    }
  }
  if (done.length) void refreshStatus()
  return { done, failed }
}

/** POST /api/option/rest_model_ratio: ModelRatio and CompletionRatio back to the defaults; the server's message. */
export const resetModelRatios = (): Promise<string> => optionsApi.resetModelRatios()
