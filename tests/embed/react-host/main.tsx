import { StrictMode, useEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'tollgate-login': React.HTMLAttributes<HTMLElement>
      'tollgate-pricing': React.HTMLAttributes<HTMLElement>
      'tollgate-topup': React.HTMLAttributes<HTMLElement>
    }
  }
}

/** A shop page in React 19: the three elements as plain tags, the host reacting to their events. */
function Shop() {
  const ref = useRef<HTMLDivElement>(null)
  const [who, setWho] = useState('')
  useEffect(() => {
    const box = ref.current!
    const login = (e: Event) => setWho((e as CustomEvent<{ user: { username: string } }>).detail.user.username)
    const logout = () => setWho('')
    box.addEventListener('tollgate-login', login)
    box.addEventListener('tollgate-logout', logout)
    return () => {
      box.removeEventListener('tollgate-login', login)
      box.removeEventListener('tollgate-logout', logout)
    }
  }, [])
  return (
    <div ref={ref}>
      <h1>Shop (React)</h1>
      <p data-host-user="">{who ? `Hello ${who}` : 'Not signed in'}</p>
      <tollgate-login></tollgate-login>
      <tollgate-pricing></tollgate-pricing>
      <tollgate-topup></tollgate-topup>
    </div>
  )
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <Shop />
  </StrictMode>,
)
