/** The benchmarks' child processes: started with Node, their stdout read line by line. */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export const root = join(new URL('.', import.meta.url).pathname, '..', '..')

/** Starts `node <args>` and resolves with its first line of output (what it says once it listens). */
export function start(args: string[]): Promise<{ child: ChildProcess; line: string; lines: AsyncIterator<string> }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  return lines.next().then((r) => {
    if (r.done) throw new Error(`${args.join(' ')} exited before it listened`)
    return { child, line: r.value, lines }
  })
}
