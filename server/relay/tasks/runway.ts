/**
 * Runway (type 47) through the family's Runway proxy, and RunwayML (type 61) in Runway's public
 * API. Prices by model names derived from the body: runway_gen2, runway_gen3_<5|10>,
 * runway_gen3_fast_<5|10> (explore mode), runway_gen3_turbo_<5|10>; runwayml_<model>_<duration>.
 */
import { field, num, phaseOf, str } from './types.ts'
import { percent, type Body, type RestPlatform } from './rest.ts'

/** runway_gen2, or runway_gen3[_fast|_turbo] by task type and explore mode (the action kind). */
export function runwayAction(body: Body): string {
  const type = str(body.taskType).toLowerCase()
  if (type === 'gen2') return 'runway_gen2'
  if (type.includes('turbo')) return 'runway_gen3_turbo'
  return field(body, 'options', 'exploreMode') === true ? 'runway_gen3_fast' : 'runway_gen3'
}

export function runwayModel(body: Body): string {
  const action = runwayAction(body)
  return action === 'runway_gen2' ? action : `${action}_${num(field(body, 'options', 'seconds')) > 5 ? 10 : 5}`
}

export function runwaymlModel(body: Body): string {
  const model = str(body.model) || 'gen3a_turbo'
  return `runwayml_${model}_${num(body.duration) === 5 ? 5 : 10}`
}

const SUCCESS = ['succeeded']
const FAILURE = ['failed', 'cancelled']

export const runwayPlatform: RestPlatform = {
  platform: 'runway',
  channelTypes: [47],
  submits: [
    { path: '/runway/tasks', action: runwayAction, model: runwayModel },
    { path: '/runway/image_to_video', action: runwayAction, model: runwayModel },
  ],
  fetches: ['/runway/tasks/:id'],
  taskIdOf: (json) => str(field(json, 'task', 'id')) || str(field(json, 'id')),
  fetchPath: (row) => `/runway/tasks/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const task = field(json, 'task') ?? json
    const status = str(field(task, 'status'))
    const phase = phaseOf(status, SUCCESS, FAILURE)
    const artifacts = field(task, 'artifacts')
    const url = Array.isArray(artifacts) ? str(field(artifacts[0], 'url')) : ''
    return {
      phase,
      changes: {
        status,
        progress: phase === 'running' ? percent(field(task, 'progressRatio') ?? field(task, 'progress')) : '100%',
        data: JSON.stringify(json),
        ...(url ? { result: url, url } : {}),
        ...(str(field(task, 'error')) ? { fail_reason: str(field(task, 'error')) } : {}),
      },
    }
  },
}

export const runwaymlPlatform: RestPlatform = {
  platform: 'runway',
  subPlatform: 'runwayml',
  channelTypes: [61],
  submits: [{ path: '/runwayml/v1/image_to_video', action: (b) => `runwayml_${str(b.model) || 'gen3a_turbo'}`, model: runwaymlModel }],
  fetches: ['/runwayml/v1/tasks/:id'],
  taskIdOf: (json) => str(field(json, 'id')),
  fetchPath: (row) => `/runwayml/v1/tasks/${encodeURIComponent(row.task_id)}`,
  read(json) {
    const status = str(field(json, 'status'))
    const phase = phaseOf(status, SUCCESS, FAILURE)
    const output = field(json, 'output')
    const url = Array.isArray(output) ? str(output[0]) : ''
    return {
      phase,
      changes: {
        status,
        progress: phase === 'running' ? percent(field(json, 'progress')) : '100%',
        data: JSON.stringify(json),
        ...(url ? { result: url, url } : {}),
        ...(str(field(json, 'failure')) ? { fail_reason: str(field(json, 'failure')) } : {}),
      },
    }
  },
}
