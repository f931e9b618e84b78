/** The soak's load balancer: a tiny round-robin HTTP proxy on loopback (each request to the next instance). */
import { createServer, request, Agent } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function startProxy(port: number, ports: () => number[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  let next = 0
  const server = createServer((req, res) => {
    const list = ports()
    const target = list[next++ % list.length]
    const up = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
      answer.on('error', () => res.destroy())
    })
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":{"message":"instance down"}}')
      else res.destroy()
    })
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const actual = (server.address() as AddressInfo).port
  return {
    port: actual,
    base: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        agent.destroy()
        server.close(() => resolve())
      }),
  }
}
