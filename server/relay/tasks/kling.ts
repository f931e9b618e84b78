/**
 * Kling (type 53) in Kling's API: POST /kling/v1/videos/{text2video,image2video} and
 * /kling/v1/images/generations answer `{code:0, data:{task_id, task_status}}`; GET …/{id} the same
 * with `task_result.videos|images`. Prices: <model>_videos_<mode>_<duration>, <model>_images; a
 * virtual try-on (POST /kling/v1/images/kolors-virtual-try-on) by its model_name.
 */
import type { TaskRow } from '../../db/tasks.ts'
import { field, num, phaseOf, str } from './types.ts'
import type { Body, RestPlatform } from './rest.ts'

const modelName = (b: Body) => str(b.model_name) || str(b.model) || 'kling-v1'
export const klingVideoModel = (b: Body) => `${modelName(b)}_videos_${str(b.mode) || 'std'}_${num(b.duration) === 10 ? 10 : 5}`

const TRY_ON = 'kolors-virtual-try-on'

/** The fetch path of a task by its kind (the action it was submitted with; a try-on by its sub-platform). */
function fetchPath(row: TaskRow): string {
  const kind =
    row.sub_platform === TRY_ON
      ? `images/${TRY_ON}`
      : ({ kling_txt2video: 'videos/text2video', kling_img2video: 'videos/image2video' }[row.action] ?? 'images/generations')
  return `/kling/v1/${kind}/${encodeURIComponent(row.task_id)}`
}

export const klingPlatform: RestPlatform = {
  platform: 'kling',
  channelTypes: [53],
  submits: [
    { path: '/kling/v1/videos/text2video', action: () => 'kling_txt2video', model: klingVideoModel },
    { path: '/kling/v1/videos/image2video', action: () => 'kling_img2video', model: klingVideoModel },
    { path: '/kling/v1/images/generations', action: () => 'kling_image', model: (b) => `${modelName(b)}_images` },
    // the fork prices a virtual try-on by the body's model_name as it is
    { path: `/kling/v1/images/${TRY_ON}`, action: () => 'kling_image', model: (b) => str(b.model_name) || 'kolors-virtual-try-on-v1' },
  ],
  fetches: [
    '/kling/v1/videos/text2video/:id',
    '/kling/v1/videos/image2video/:id',
    '/kling/v1/images/generations/:id',
    `/kling/v1/images/${TRY_ON}/:id`,
  ],
  subPlatformOf: (path) => (path.endsWith(TRY_ON) ? TRY_ON : ''),
  taskIdOf: (json) => (num(field(json, 'code')) === 0 ? str(field(json, 'data', 'task_id')) : ''),
  fetchPath,
  read(json) {
    const status = str(field(json, 'data', 'task_status'))
    const phase = phaseOf(status, ['succeed'], ['failed'])
    const videos = field(json, 'data', 'task_result', 'videos')
    const images = field(json, 'data', 'task_result', 'images')
    const video = Array.isArray(videos) ? videos[0] : undefined
    const image = Array.isArray(images) ? images[0] : undefined
    return {
      phase,
      changes: {
        status,
        progress: phase === 'running' ? (status === 'processing' ? '50%' : '0%') : '100%',
        data: JSON.stringify(json),
        ...(str(field(video, 'url')) ? { result: str(field(video, 'url')), url: str(field(video, 'url')) } : {}),
        ...(num(field(video, 'duration')) ? { video_duration: num(field(video, 'duration')) } : {}),
        ...(str(field(image, 'url')) ? { image_url: str(field(image, 'url')), url: str(field(image, 'url')) } : {}),
        ...(str(field(json, 'data', 'task_status_msg')) ? { fail_reason: str(field(json, 'data', 'task_status_msg')) } : {}),
      },
    }
  },
}
