/** The mocha globals @web/test-runner provides in the browser (the few these tests use). */
type MochaDone = (error?: unknown) => void
type MochaFn = (this: unknown, done: MochaDone) => void | Promise<unknown>
declare function describe(title: string, fn: () => void): void
declare function it(title: string, fn: MochaFn): void
declare function before(fn: MochaFn): void
declare function after(fn: MochaFn): void
declare function beforeEach(fn: MochaFn): void
declare function afterEach(fn: MochaFn): void
