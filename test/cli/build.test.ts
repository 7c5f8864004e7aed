// Issue 21 item 14: `npm pack` runs `prepack` (deletes dist/) and then `prepare`, and tsc writes a new
// file with mode 0644. `npx refdesk` in the clone runs dist/main.js through its bin link, so the fresh
// file must carry its run bit, whichever of the README's commands rebuilt it last.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
}

/** A throwaway project with this package's build scripts, a tsconfig of its own and a one-line bin. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'refdesk-build-'))
  const { build, prepare } = scripts
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'x', private: true, scripts: { build, prepare } }),
  )
  writeFileSync(
    join(dir, 'tsconfig.build.json'),
    JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist', module: 'nodenext', types: [] } }),
  )
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'main.ts'), '#!/usr/bin/env node\nconsole.log("ran")\n')
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('the build leaves dist/main.js executable', () => {
  it.each(['build', 'prepare'])(
    'npm run %s on a fresh dist/ gives main.js its run bit',
    (script) => {
      const dir = project()
      dirs.push(dir)
      execFileSync('npm', ['run', '--silent', script], { cwd: dir, stdio: 'pipe' })
      const main = join(dir, 'dist', 'main.js')
      expect(statSync(main).mode & 0o111).toBe(0o111)
      // Run as a program (no `node` in front), the way npx's bin link runs it.
      expect(execFileSync(main, { encoding: 'utf8' })).toBe('ran\n')
    },
    120_000,
  )
})
