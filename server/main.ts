import { serve } from '@hono/node-server'
import { loadConfig } from './config.ts'
import { createServer } from './app.ts'

const config = loadConfig()
const server = await createServer(config)
const http = serve({ fetch: server.app.fetch, port: config.port, hostname: config.host }, (info) => {
  const where = config.databaseUrl ? 'PostgreSQL' : `SQLite at ${config.dataDir}/tollgate.db`
  console.log(`Tollgate listening on http://localhost:${info.port} (${where})`)
})

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping, flushing pending writes`)
  http.close()
  await server.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
