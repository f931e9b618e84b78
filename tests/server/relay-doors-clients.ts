/**
 * The three front doors' official clients, each behind one small interface, so the door × channel
 * matrix in relay-doors.test.ts runs the same cases through every SDK unchanged.
 */
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, ApiError } from '@google/genai'

export interface Answer {
  text: string
  input: number
  output: number
  /** the stop reason in the door's own words */
  stop: string
}

export interface ToolCall {
  name: string
  args: Record<string, unknown>
}

export interface DoorClient {
  name: string
  plain(model: string): Promise<Answer>
  stream(model: string): Promise<Answer & { events: string[] }>
  tool(model: string, stream: boolean): Promise<ToolCall>
  /** the status and message of a refused call */
  error(model: string): Promise<{ status: number; message: string; type: string }>
}

const WEATHER = {
  name: 'get_weather',
  description: 'the weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

export function responsesClient(base: string, key: string): DoorClient {
  const client = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
  const tools = [{ type: 'function' as const, strict: false, ...WEATHER }]
  return {
    name: 'responses',
    async plain(model) {
      const r = await client.responses.create({ model, input: 'Say hello', instructions: 'Be brief.' })
      return { text: r.output_text, input: r.usage!.input_tokens, output: r.usage!.output_tokens, stop: r.status ?? '' }
    },
    async stream(model) {
      const events: string[] = []
      const s = client.responses.stream({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }] })
      s.on('event', (e) => events.push(e.type))
      const r = await s.finalResponse()
      return { text: r.output_text, input: r.usage!.input_tokens, output: r.usage!.output_tokens, stop: r.status ?? '', events }
    },
    async tool(model, stream) {
      const body = { model, input: 'Weather in Paris?', tools }
      const r = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body)
      const call = r.output.find((o) => o.type === 'function_call')
      if (!call || call.type !== 'function_call') throw new Error('no function call')
      return { name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown> }
    },
    async error(model) {
      try {
        await client.responses.create({ model, input: 'fail' })
      } catch (err) {
        if (err instanceof OpenAI.APIError) return { status: err.status ?? 0, message: err.message, type: String(err.type ?? '') }
        throw err
      }
      throw new Error('no error')
    },
  }
}

export function messagesClient(base: string, key: string): DoorClient {
  const client = new Anthropic({ apiKey: key, baseURL: base, maxRetries: 0 })
  const tools = [{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters as Anthropic.Tool.InputSchema }]
  const text = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
  return {
    name: 'messages',
    async plain(model) {
      const m = await client.messages.create({
        model,
        max_tokens: 256,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Say hello' }],
      })
      return { text: text(m), input: m.usage.input_tokens, output: m.usage.output_tokens, stop: m.stop_reason ?? '' }
    },
    async stream(model) {
      const events: string[] = []
      const s = client.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] })
      s.on('streamEvent', (e) => events.push(e.type))
      const m = await s.finalMessage()
      return { text: text(m), input: m.usage.input_tokens, output: m.usage.output_tokens, stop: m.stop_reason ?? '', events }
    },
    async tool(model, stream) {
      const body = { model, max_tokens: 256, tools, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] }
      const m = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body)
      const use = m.content.find((b) => b.type === 'tool_use')
      if (!use || use.type !== 'tool_use') throw new Error('no tool use')
      return { name: use.name, args: use.input as Record<string, unknown> }
    },
    async error(model) {
      try {
        await client.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'fail' }] })
      } catch (err) {
        if (err instanceof Anthropic.APIError) {
          const body = err.error as { error?: { type?: string } } | undefined
          return { status: err.status ?? 0, message: err.message, type: String(body?.error?.type ?? '') }
        }
        throw err
      }
      throw new Error('no error')
    },
  }
}

export function geminiClient(base: string, key: string): DoorClient {
  const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: base } })
  const tools = [
    { functionDeclarations: [{ name: WEATHER.name, description: WEATHER.description, parametersJsonSchema: WEATHER.parameters }] },
  ]
  return {
    name: 'gemini',
    async plain(model) {
      const r = await ai.models.generateContent({ model, contents: 'Say hello', config: { systemInstruction: 'Be brief.' } })
      const u = r.usageMetadata!
      return {
        text: r.text ?? '',
        input: u.promptTokenCount ?? 0,
        output: u.candidatesTokenCount ?? 0,
        stop: String(r.candidates?.[0]?.finishReason ?? ''),
      }
    },
    async stream(model) {
      const events: string[] = []
      let text = ''
      let last: Awaited<ReturnType<typeof ai.models.generateContent>> | null = null
      for await (const chunk of await ai.models.generateContentStream({ model, contents: 'Say hello' })) {
        events.push(chunk.candidates?.[0]?.finishReason ? 'finish' : 'chunk')
        text += chunk.text ?? ''
        last = chunk
      }
      const u = last?.usageMetadata
      return {
        text,
        input: u?.promptTokenCount ?? 0,
        output: u?.candidatesTokenCount ?? 0,
        stop: String(last?.candidates?.[0]?.finishReason ?? ''),
        events,
      }
    },
    async tool(model, stream) {
      const req = { model, contents: 'Weather in Paris?', config: { tools } }
      let calls: Array<{ name?: string; args?: Record<string, unknown> }> = []
      if (stream) for await (const c of await ai.models.generateContentStream(req)) calls = calls.concat(c.functionCalls ?? [])
      else calls = (await ai.models.generateContent(req)).functionCalls ?? []
      if (!calls[0]) throw new Error('no function call')
      return { name: calls[0].name ?? '', args: calls[0].args ?? {} }
    },
    async error(model) {
      try {
        await ai.models.generateContent({ model, contents: 'fail' })
      } catch (err) {
        if (err instanceof ApiError) {
          const status = /"status":\s*"([A-Z_]+)"/.exec(err.message)?.[1] ?? ''
          return { status: err.status, message: err.message, type: status }
        }
        throw err
      }
      throw new Error('no error')
    },
  }
}
