import { addWords } from '../words.ts'

/** English words of the users screen. */
export const usersWords = {
  'users.created': 'user account created',
  'users.updated': 'user info updated',
  'users.done': 'operation completed successfully',
}

addWords('users', usersWords, () => import('../zh-CN/users.ts'))
