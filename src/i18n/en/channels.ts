import { addWords } from '../words.ts'

/** English words of the channels screen. */
export const channelsWords = {
  'channels.tested': 'channel {name} tested successfully, took {seconds} seconds',
  'channels.testAllStarted': 'started, refresh to see results',
  'channels.balanceUpdated': 'channel balance updated',
  'channels.balancesUpdated': 'all enabled channels updated',
  'channels.fixed': '{n, plural, one {abilities of # channel rebuilt} other {abilities of # channels rebuilt}}',
  'channels.deletedMany': '{n, plural, one {# channel deleted} other {# channels deleted}}',
  'channels.deletedDisabled': '{n, plural, one {# disabled channel deleted} other {# disabled channels deleted}}',
  'channels.copied': 'channel copied',
  'channels.created': '{n, plural, one {channel created} other {# channels created}}',
  'channels.updated': 'channel updated',
  'channels.modelsExist': 'some models already exist',
  'channels.fetched': '{n, plural, one {# model fetched} other {# models fetched}}',
  'channels.error.resubmit': 'submit failed, do not resubmit',
  'channels.error.openaiOnly': 'only the OpenAI interface format is supported',
  'channels.error.fetchFailed': 'fetching model list failed',
  'channels.error.keyFirst': 'please fill in the key first',
  'channels.error.copyFailed': 'channel copy failed',
  'channels.error.selectFirst': 'select channels to delete first',
  'problem.channel.nameAndKey': 'please fill in the channel name and key',
  'problem.channel.oneModel': 'choose at least one model',
  'problem.channel.modelMappingJson': 'model mapping must be valid JSON',
  'problem.channel.modelMappingValue': 'model mapping must map each name to a model name ({name} does not)',
  'problem.channel.statusMappingJson': 'status-code mapping must be valid JSON',
  'problem.channel.statusMappingCode': 'status-code mapping: {code} is not an HTTP status code',
  'problem.channel.baseUrlInvalid': 'the base URL must be an http or https address',
}

addWords('channels', channelsWords, () => import('../zh-CN/channels.ts'))
