import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter'

/** Prints the one closing line `playwright: N passed, N failed, N skipped` that npm test reads. */
export default class SummaryReporter implements Reporter {
  private passed = 0
  private failed = 0
  private skipped = 0
  onTestEnd(test: TestCase, _result: TestResult) {
    if (_result.retry < test.retries && _result.status !== 'passed' && _result.status !== 'skipped') return
    const outcome = test.outcome()
    if (outcome === 'skipped') this.skipped++
    else if (outcome === 'expected' || outcome === 'flaky') this.passed++
    else this.failed++
  }
  onEnd(result: { status: string }) {
    if (result.status !== 'passed' && this.failed === 0) this.failed = 1
    console.log(`playwright: ${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`)
  }
}
