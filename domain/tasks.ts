/** The provider kinds with a task list, by their console route (spec section 2). */
export type TaskPlatform = 'midjourney' | 'suno' | 'luma' | 'lumav2' | 'viggle' | 'runway' | 'pika' | 'kling' | 'ideo'

/** Where each kind's list is served, under /api (spec section 7); the /self variant adds `/self`. */
export const TASK_LIST_PATHS: Readonly<Record<TaskPlatform, string>> = {
  midjourney: '/mj',
  suno: '/suno',
  luma: '/luma',
  lumav2: '/luma/v2',
  viggle: '/viggle',
  runway: '/runway',
  pika: '/pika',
  kling: '/kling',
  ideo: '/ideo',
}

/** Rows per page: the task lists answer a fixed 10. */
export const TASK_PAGE_SIZE = 10
