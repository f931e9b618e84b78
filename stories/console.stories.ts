import { elementMeta, states, type Story } from './element-stories.ts'
import '../elements/console.ts'

/** the console's address per viewer: home signed out, the usage page for a user, channels for root */
const path = (role: string) => ({ 'signed-out': '/', user: '/detail', admin: '/channel' })[role] ?? '/'

export default { title: 'Elements/tollgate-console', ...elementMeta('tollgate-console', 'user', path) }

const s = states(path)
export const Loading: Story = s.loading
export const Empty: Story = s.empty
export const ServerError: Story = s.error
export const SignedOut: Story = s.signedOut
export const User: Story = s.user
export const Admin: Story = s.admin
export const Dark: Story = s.dark
export const ZhCN: Story = s.zhCN
export const Mobile375: Story = s.mobile375
