import type { TaskPlatform } from '../../api/tasks.ts'
import type { TaskRecord } from '../../api/types.ts'
import { useTaskLabels } from './tasks-labels.ts'
import { mediaKind, type MediaKind } from './task-rules.ts'

interface Media {
  url: string
  kind: MediaKind
}

/** Only web addresses are shown: a stored value is never run as a script URL. */
const safe = (url: unknown): url is string => typeof url === 'string' && /^(https?:\/\/|\/)/i.test(url.trim())

/** Video URLs in data.rz (the items of a Viggle-style result list). */
function rzVideos(data: unknown): string[] {
  const rz = data && typeof data === 'object' ? (data as { rz?: unknown }).rz : undefined
  if (!Array.isArray(rz)) return []
  const out: string[] = []
  for (const item of rz) {
    if (safe(item)) out.push(item)
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>
      const url = [o.video_url, o.videoUrl, o.video, o.url].find(safe)
      if (url) out.push(url)
    }
  }
  return out
}

/** The images, audio and video a task produced, in the order they are shown. */
export function taskMedia(platform: TaskPlatform, task: TaskRecord): Media[] {
  const list: Media[] = []
  const add = (url: unknown, fallback: MediaKind) => {
    if (safe(url) && !list.some((m) => m.url === url)) list.push({ url, kind: mediaKind(url, fallback) })
  }
  switch (platform) {
    case 'midjourney':
    case 'ideo':
      add(task.image_url, 'image')
      break
    case 'suno':
      add(task.audio_url, 'audio')
      add(task.image_url, 'image')
      break
    default:
      add(task.result, 'video')
      for (const url of rzVideos(task.data)) add(url, 'video')
  }
  return list
}

/** Previews: a thumbnail that opens the full image, an audio player, a video player. */
export function MediaPreview({ media }: { media: Media[] }) {
  const t = useTaskLabels()
  if (media.length === 0) return <span className="tg-muted">—</span>
  return (
    <div className="tg-media">
      {media.map((m) =>
        m.kind === 'image' ? (
          <a
            key={m.url}
            href={m.url}
            target="_blank"
            rel="noopener noreferrer"
            className="tg-media__image"
            title={t('tasks.openImage')}
            data-media="image"
          >
            <img src={m.url} alt={t('tasks.imageAlt')} loading="lazy" />
          </a>
        ) : m.kind === 'audio' ? (
          <audio key={m.url} src={m.url} controls preload="none" data-media="audio" aria-label={t('tasks.audioLabel')}></audio>
        ) : (
          <video
            key={m.url}
            src={m.url}
            controls
            preload="metadata"
            playsInline
            muted
            data-media="video"
            aria-label={t('tasks.videoLabel')}
          ></video>
        ),
      )}
    </div>
  )
}
