// `redocly lint` with its recommended rules (redocly.yaml) finds nothing in the document, warnings
// included. One run of the CLI for the whole document, as a partner's CI would run it.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { fetchDocument } from './helpers.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly')

describe('redocly lint', () => {
  it('passes the recommended rules without an error or a warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'refdesk-lint-'))
    try {
      const file = join(dir, 'openapi.json')
      await writeFile(file, JSON.stringify(await fetchDocument()))
      const { stdout } = await promisify(execFile)(
        REDOCLY,
        ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
        {
          cwd: ROOT,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((error: { stdout: string }) => error)
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')))
      const problems = report.problems.map(
        (p: any) => `${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer})`,
      )
      expect(problems).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
