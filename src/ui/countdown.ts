import { useCallback, useEffect, useState } from 'react'

/**
 * A resend lock: start(30) disables the action for 30 seconds (spec: code resend, e-mail bind
 * code and reset request). Returns the seconds left (0 = unlocked).
 */
export function useCountdown(): { left: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState(0)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (until <= now) return
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, until - now))
    return () => clearTimeout(timer)
  }, [until, now])
  const start = useCallback((seconds: number) => {
    const t = Date.now()
    setNow(t)
    setUntil(t + seconds * 1000)
  }, [])
  return { left: until > now ? Math.ceil((until - now) / 1000) : 0, start }
}
