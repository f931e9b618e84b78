/**
 * The feed-style platforms, in the shapes the family's own client reads (server-semantics §14):
 * - Pika (type 55): POST /pika/generate answers `{id}`; GET /pika/feed/{id} answers
 *   `{id, promptText, videos:[{id, status, progress, resultUrl, videoPoster, imageThumb, duration, error}]}`,
 *   the first video's status `finished` or `error` ending it.
 * - Pixverse (58): POST /pixverse/generate answers `{ErrCode:0, Resp:{video_id}}`; GET
 *   /pixverse/feed/{video_id} answers `{ErrCode, Resp:{video_status, url, first_frame,
 *   video_duration, …}}`, video_status 1 done; 7 and 8 (moderation, generation failed) end it
 *   failed (ours: the client only stops at 1). Listed with Pika (sub-platform `pixverse`).
 * - Riffusion (64): POST /riffusion/generate and /generate/topic answer `{jobs:[{id}…]}`; GET
 *   /riffusion/feed/{job ids, comma-separated} answers `{status, generations:[{id, audio_url,
 *   image_url, title, duration_s, lyrics}]}`, status `success` done; `failed` or `error` failed
 *   (ours). The task id is the jobs' ids joined by commas, as the client feeds them.
 */
import { field, num, str, type Phase } from './types.ts'
import { percent, type Body, type RestPlatform } from './rest.ts'
import type { TaskChanges } from '../../db/tasks.ts'

/** pika_v<version><text|image>: the version from the body's model (1.5 by default), image when one is given. */
export const pikaModel = (b: Body) => `pika_v${str(b.model) || '1.5'}${str(b.image) || str(b.image_url) ? 'image' : 'text'}`

const media = (c: Record<string, string | number>): TaskChanges =>
  Object.fromEntries(Object.entries(c).filter(([, v]) => v !== '' && v !== 0)) as TaskChanges

export const pikaPlatform: RestPlatform = {
  platform: 'pika',
  subPlatform: 'pika',
  channelTypes: [55],
  submits: [{ path: '/pika/generate', action: pikaModel, model: pikaModel }],
  fetches: ['/pika/feed/:id'],
  taskIdOf: (json) => str(field(json, 'id')),
  fetchPath: (row) => `/pika/feed/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const videos = field(json, 'videos')
    const video = Array.isArray(videos) ? videos[0] : undefined
    const status = str(field(video, 'status'))
    const phase: Phase = status === 'finished' ? 'success' : status === 'error' ? 'failure' : 'running'
    return {
      phase,
      changes: {
        status: status || 'queued',
        progress: phase === 'running' ? percent(field(video, 'progress')) : '100%',
        data: JSON.stringify(json),
        ...media({
          url: str(field(video, 'resultUrl')),
          result: str(field(video, 'resultUrl')),
          image_url: str(field(video, 'videoPoster')) || str(field(video, 'imageThumb')),
          video_duration: num(field(video, 'duration')),
          fail_reason: phase === 'failure' ? str(field(video, 'error')) || 'the video could not be made' : '',
        }),
      },
    }
  },
}

const PIXVERSE_FAILED = [7, 8]

export const pixversePlatform: RestPlatform = {
  platform: 'pika',
  subPlatform: 'pixverse',
  channelTypes: [58],
  submits: [{ path: '/pixverse/generate', action: () => 'pixverse_generate', model: (b) => `pixverse_${str(b.model) || 'v3.5'}` }],
  fetches: ['/pixverse/feed/:id'],
  taskIdOf: (json) => (num(field(json, 'ErrCode')) === 0 ? str(field(json, 'Resp', 'video_id')) : ''),
  fetchPath: (row) => `/pixverse/feed/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const resp = field(json, 'Resp')
    const code = num(field(resp, 'video_status'))
    const phase: Phase = code === 1 ? 'success' : PIXVERSE_FAILED.includes(code) ? 'failure' : 'running'
    return {
      phase,
      changes: {
        status: phase === 'success' ? 'finished' : phase === 'failure' ? 'failed' : 'processing',
        progress: phase === 'running' ? '50%' : '100%',
        data: JSON.stringify(json),
        ...media({
          url: str(field(resp, 'url')),
          result: str(field(resp, 'url')),
          image_url: str(field(resp, 'first_frame')),
          video_duration: num(field(resp, 'video_duration')),
          fail_reason: phase === 'failure' ? `pixverse video_status ${code}` : '',
        }),
      },
    }
  },
}

export const riffusionPlatform: RestPlatform = {
  platform: 'riffusion',
  channelTypes: [64],
  submits: [
    { path: '/riffusion/generate', action: () => 'riffusion_generate', model: () => 'riffusion_generate' },
    { path: '/riffusion/generate/topic', action: () => 'riffusion_topic', model: () => 'riffusion_topic' },
  ],
  fetches: ['/riffusion/feed/:id'],
  taskIdOf(json) {
    const jobs = field(json, 'jobs')
    return Array.isArray(jobs)
      ? jobs
          .map((j) => str(field(j, 'id')))
          .filter(Boolean)
          .join(',')
      : ''
  },
  fetchPath: (row) => `/riffusion/feed/${row.task_id.split(',').map(encodeURIComponent).join(',')}`,
  read(json) {
    const status = str(field(json, 'status'))
    const phase: Phase = status === 'success' ? 'success' : status === 'failed' || status === 'error' ? 'failure' : 'running'
    const generations = field(json, 'generations')
    const first = Array.isArray(generations) ? generations[0] : undefined
    return {
      phase,
      changes: {
        status: status || 'queued',
        progress: phase === 'running' ? (first ? '50%' : '0%') : '100%',
        data: JSON.stringify(json),
        ...media({
          url: str(field(first, 'audio_url')),
          audio_url: str(field(first, 'audio_url')),
          image_url: str(field(first, 'image_url')),
          title: str(field(first, 'title')),
          text: str(field(first, 'lyrics')),
          video_duration: num(field(first, 'duration_s')),
          fail_reason: phase === 'failure' ? str(field(json, 'error')) || 'the song could not be made' : '',
        }),
      },
    }
  },
}
