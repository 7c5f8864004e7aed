// Every link in the README and docs/ resolves inside the repository: a relative link names a file of
// the repository (and a heading of it, when it has a #fragment). Web links are allowed, links to a
// running server are not (they resolve nowhere for a reader of the repository). Every code path the pages
// name in backticks (`store/scope.ts`, `test/mcp/tools.test.ts`) exists, from the root or from src/.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

/** Markdown links outside code: `[text](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
}

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)))
}

/** Paths in inline code: a folder and a file name with an extension; `/docs/x` is a URL, not a path. */
function codePathsOf(markdown: string): string[] {
  const code = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!)
  return code.filter((text) => /^(?:[\w.-]+\/)+[\w.-]+\.(?:ts|mjs|js|json|md|eta|css|yaml)$/.test(text))
}

/** Folders git ignores (generated output such as bench/results/): paths in them need not exist. */
const GENERATED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => line.endsWith('/'))

describe('links in the README and docs/', () => {
  it.each(PAGES)('%s links only to files of the repository (or the web)', (page) => {
    const broken = linksOf(readFileSync(join(ROOT, page), 'utf8')).filter((link) => {
      if (/^https?:\/\//.test(link)) return /^https?:\/\/(localhost|127\.)/.test(link)
      if (/^[a-z]+:/i.test(link)) return true
      const [path, fragment] = link.split('#') as [string, string | undefined]
      const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path))
      if (relative(ROOT, target).startsWith('..') || !existsSync(target)) return true
      return fragment !== undefined && target.endsWith('.md') && !anchorsOf(target).has(fragment)
    })
    expect(broken).toEqual([])
  })

  it.each(PAGES)('%s names only code paths that exist', (page) => {
    const stale = codePathsOf(readFileSync(join(ROOT, page), 'utf8')).filter(
      (path) =>
        !GENERATED.some((folder) => path.startsWith(folder)) &&
        !existsSync(join(ROOT, path)) &&
        !existsSync(join(ROOT, 'src', path)),
    )
    expect(stale).toEqual([])
  })

  it('finds the code paths it checks', () => {
    expect(codePathsOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))).toContain('store/scope.ts')
  })

  it('finds the links it checks', () => {
    expect(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toContain('docs/operations.md')
  })
})
