import type { usersWords } from '../en/users.ts'

/** Simplified Chinese words of the users screen (same keys as en/users.ts), loaded when Chinese is wanted. */
const words: Record<keyof typeof usersWords, string> = {
  'users.created': '用户账户创建成功！',
  'users.updated': '用户信息更新成功！',
  'users.done': '操作成功完成！',
}

export default words
