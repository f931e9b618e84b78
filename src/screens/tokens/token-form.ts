import { useEffect, useState, type FormEvent } from 'react'
import { useT, problemMessage } from '../../i18n/t.ts'
import { createTokens, loadToken, updateToken, userModels, type TokenBody } from '../../stores/tokens.ts'
import type { Token } from '../../api/types.ts'
import { toast } from '../../stores/toasts.ts'
import '../../i18n/en/tokens.ts'
import { batchNames, expiryToInput, parseExpiry } from './token-rules.ts'
import { firstProblem, type Problem } from '../../../domain/problem.ts'
import { parseInteger, splitList } from '../../../domain/text.ts'
import {
  BATCH_MAX,
  EDIT_TOKEN_QUOTA,
  expiryProblem,
  modelLimitsChosenProblem,
  modelLimitsProblem,
  NEW_TOKEN_QUOTA,
  remainQuotaProblem,
  tokenNameProblem,
} from '../../../domain/token-rules.ts'
import '../../i18n/en/tokens.ts'

/** What the token drawer opens on: a new token, or the token to edit. */
export type DrawerMode = { kind: 'create' } | { kind: 'edit'; id: number }

/** The token drawer's form, as typed. */
export interface Fields {
  name: string
  remainQuota: string
  unlimited: boolean
  expiry: string
  limitsEnabled: boolean
  limits: string[]
  count: string
}

/** Changes some fields of the form. */
export type SetFields = (patch: Partial<Fields>) => void

const blank = (quota: number): Fields => ({
  name: '',
  remainQuota: String(quota),
  unlimited: false,
  expiry: '',
  limitsEnabled: false,
  limits: [],
  count: '1',
})

const fromToken = (t: Token): Fields => ({
  name: t.name,
  remainQuota: String(t.remain_quota),
  unlimited: t.unlimited_quota,
  expiry: expiryToInput(t.expired_time),
  limitsEnabled: t.model_limits_enabled,
  limits: splitList(t.model_limits),
  count: '1',
})

/** The body the form saves, and the first thing wrong with it (null when it can be saved). */
function readFields(fields: Fields): { body: TokenBody; problem: Problem | null } {
  const name = fields.name.trim()
  const expiredTime = parseExpiry(fields.expiry) ?? Number.NaN
  const typed = parseInteger(fields.remainQuota)
  // an unlimited token keeps whatever quota it had; an unreadable one counts as 0
  const remain = fields.unlimited && !(typed >= 0) ? 0 : typed
  const modelLimits = fields.limits.join(',')
  const problem = firstProblem(
    tokenNameProblem(name),
    expiryProblem(expiredTime),
    remainQuotaProblem(remain),
    modelLimitsProblem(modelLimits),
    modelLimitsChosenProblem(fields.limitsEnabled, modelLimits),
  )
  const body: TokenBody = {
    name,
    remain_quota: remain,
    expired_time: expiredTime,
    unlimited_quota: fields.unlimited,
    model_limits_enabled: fields.limitsEnabled,
    model_limits: modelLimits,
  }
  return { body, problem }
}

/**
 * The fields of the drawer while it is open: blank on create, the token's own once it has loaded
 * on edit (a token that cannot be loaded closes the drawer), and the user's models to limit to.
 */
export function useTokenFields(mode: DrawerMode | null, onClose: () => void, setMessage: (message: string | null) => void) {
  const [fields, setFields] = useState<Fields>(blank(NEW_TOKEN_QUOTA))
  const [models, setModels] = useState<string[]>([])
  const [loading, setLoading] = useState(false)
  const set: SetFields = (patch) => setFields((f) => ({ ...f, ...patch }))

  useEffect(() => {
    if (!mode) return
    let cancelled = false
    setMessage(null)
    setFields(blank(mode.kind === 'edit' ? EDIT_TOKEN_QUOTA : NEW_TOKEN_QUOTA))
    void userModels().then((list) => !cancelled && setModels(list))
    if (mode.kind === 'edit') {
      setLoading(true)
      loadToken(mode.id)
        .then((token) => !cancelled && setFields(fromToken(token)))
        .catch(() => !cancelled && onClose())
        .finally(() => !cancelled && setLoading(false))
    }
    return () => {
      cancelled = true
    }
  }, [mode, onClose, setMessage])

  return { fields, set, models, loading }
}

/**
 * Saving the drawer: the form's first problem as its message, else the update (edit) or the
 * batch of new tokens (create), then the drawer closes.
 */
export function useTokenSave({
  mode,
  fields,
  loading,
  setMessage,
  onClose,
  onCreated,
}: {
  mode: DrawerMode | null
  fields: Fields
  loading: boolean
  setMessage: (message: string | null) => void
  onClose: () => void
  onCreated: (count: number) => void
}) {
  const t = useT()
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!mode || busy || loading) return
    setMessage(null)
    const { body, problem } = readFields(fields)
    if (problem) return setMessage(problem.id === 'token.expiryInvalid' ? t('token.expiryFormatDrawer') : problemMessage(t, problem))
    setBusy(true)
    try {
      if (mode.kind === 'edit') {
        await updateToken(mode.id, body)
        toast.success(t('token.updated'))
        onClose()
        return
      }
      const count = Math.min(BATCH_MAX, Math.max(1, Number.parseInt(fields.count, 10) || 1))
      // a batch stops at its first refusal (the client showed why)
      const created = await createTokens(body, batchNames(body.name, count))
      if (created > 0) {
        toast.success(t('token.created', { count: created }))
        onCreated(created)
        onClose()
      }
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false)
    }
  }

  return { busy, submit }
}
