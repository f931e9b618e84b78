/**
 * Udio (type 49), by the family's client paths and Suno's task protocol (our design): POST
 * /udio/submit/music answers `{code:"success", data:"<task id>"}`; the channel's GET
 * /udio/fetch/{id} answers `{code:"success", data:<task as Suno's fetch>}` whose `data.songs`
 * hold the songs (song_path, image_path, title, lyrics, duration), as the family's client reads.
 */
import { field, num, str } from './types.ts'
import type { RestPlatform } from './rest.ts'
import { sunoUpdate } from './suno.ts'

export const udioPlatform: RestPlatform = {
  platform: 'udio',
  channelTypes: [49],
  submits: [{ path: '/udio/submit/music', action: () => 'udio_music', model: () => 'udio_music' }],
  fetches: ['/udio/fetch/:id'],
  taskIdOf: (json) => (str(field(json, 'code')) === 'success' ? str(field(json, 'data')) : ''),
  fetchPath: (row) => `/udio/fetch/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const task = field(json, 'data')
    const { phase, changes } = sunoUpdate(task)
    // the family's client reads the songs at data.data.songs (song_path, image_path, duration)
    const songs = field(task, 'data', 'songs')
    const song = Array.isArray(songs) ? songs[0] : undefined
    const media = {
      ...(str(field(song, 'song_path')) ? { audio_url: str(field(song, 'song_path')), url: str(field(song, 'song_path')) } : {}),
      ...(str(field(song, 'image_path')) ? { image_url: str(field(song, 'image_path')) } : {}),
      ...(str(field(song, 'title')) ? { title: str(field(song, 'title')) } : {}),
      ...(str(field(song, 'lyrics')) ? { text: str(field(song, 'lyrics')) } : {}),
      ...(num(field(song, 'duration')) ? { video_duration: num(field(song, 'duration')) } : {}),
    }
    return { phase, changes: { ...changes, ...media, data: JSON.stringify(json) } }
  },
}
