import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent } from 'react'
import { navigate as storeNavigate } from '../stores/route.ts'

export type Navigate = (to: string, options?: { replace?: boolean }) => void

/**
 * How a screen moves to another console path. The element layer supplies one that lets the host
 * page take over first; without it the route store navigates.
 */
export const NavigateContext = createContext<Navigate>(storeNavigate)

export function useNavigate(): Navigate {
  return useContext(NavigateContext)
}

/**
 * A console link: a real <a href> (so it works with the keyboard, middle-click and "open in new
 * tab"), with a plain click turned into client-side navigation.
 */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useNavigate()
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(to)
  }
  return <a href={to} onClick={handle} {...rest} />
}
