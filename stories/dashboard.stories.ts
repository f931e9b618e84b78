import { elementMeta, states, type Story } from './element-stories.ts'
import '../elements/dashboard.ts'

export default { title: 'Elements/tollgate-dashboard', ...elementMeta('tollgate-dashboard', 'user') }

const s = states()
export const Loading: Story = s.loading
export const Empty: Story = s.empty
export const ServerError: Story = s.error
export const SignedOut: Story = s.signedOut
export const User: Story = s.user
export const Admin: Story = s.admin
export const Dark: Story = s.dark
export const ZhCN: Story = s.zhCN
export const Mobile375: Story = s.mobile375
