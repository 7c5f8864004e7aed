// The floors of src/ hold: the resolved import graph has no circle and no import that architecture.config.js
// does not allow, and lint refuses each break the house once had.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { CHAPTERS, LAYERS } from '../architecture.config.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SRC = join(ROOT, 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Each file of src/ with the files of src/ it imports (type-only imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const local = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')))
    graph.set(file, local)
  }
  return graph
}

/** Lint as `npm run lint` does, less the type-aware rules: the probes need no program, which costs seconds. */
async function lint(text: string, filePath: string) {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
      },
    },
  })
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, filePath) })
  return result!.messages.map((m) => m.ruleId)
}

const layerOf = (file: string): string => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '')
const DOMAIN = join(SRC, 'domain')
/** The chapter of a file of src/domain/ (its folder there), else null. */
const chapterOf = (file: string): string | null =>
  file.startsWith(DOMAIN + '/') ? relative(DOMAIN, file).split('/')[0]! : null

/** The strongly connected components with more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string) => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!))
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(relative(SRC, member))
      } while (member !== file)
      if (component.length > 1) found.push(component)
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe('the architecture of src/', () => {
  const graph = importGraph()

  it('names a floor for every folder and top-level file', () => {
    expect([...new Set([...graph.keys()].map(layerOf))].filter((l) => !(l in LAYERS))).toEqual([])
  })

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([])
  })

  it('has no import that runs up a floor or across to another transport', () => {
    const allowed = LAYERS as Record<string, readonly string[]>
    const breaks = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((to) => layerOf(to) !== layerOf(file) && !allowed[layerOf(file)]!.includes(layerOf(to)))
        .map((to) => `${relative(SRC, file)} -> ${relative(SRC, to)}`),
    )
    expect(breaks).toEqual([])
  })

  it('puts every file of domain/ in a chapter that CHAPTERS names', () => {
    const loose = [...graph.keys()]
      .filter((file) => chapterOf(file) !== null)
      .filter((file) => dirname(file) === DOMAIN || !(chapterOf(file)! in CHAPTERS))
      .map((file) => relative(SRC, file))
    expect(loose).toEqual([])
  })

  it('has no import between chapters of domain/ that CHAPTERS does not allow', () => {
    const allowed = CHAPTERS as Record<string, readonly string[]>
    const breaks = [...graph].flatMap(([file, imports]) => {
      const from = chapterOf(file)
      if (from === null) return []
      return imports
        .filter((to) => {
          const chapter = chapterOf(to)
          return chapter !== null && chapter !== from && !allowed[from]!.includes(chapter)
        })
        .map((to) => `${relative(SRC, file)} -> ${relative(SRC, to)}`)
    })
    expect(breaks).toEqual([])
  })

  it('keeps the chapter table free of circles', () => {
    const chapters = new Map(Object.entries(CHAPTERS).map(([name, uses]) => [name, [...uses]]))
    expect(circles(chapters)).toEqual([])
  })

  // One page, one name: domain/pages/X.ts is read by web/routes/X.ts and rendered by web/views/X.eta.
  it('gives each read model of domain/pages/ the route module and the view of its name', () => {
    const pages = readdirSync(join(DOMAIN, 'pages')).map((name) => name.replace(/\.ts$/, ''))
    const missing = pages.flatMap((page) =>
      [`web/routes/${page}.ts`, `web/views/${page}.eta`].filter((path) => !existsSync(join(SRC, path))),
    )
    expect(missing).toEqual([])
  })

  // Each import the structure once had that broke a floor, placed back in its file: lint must refuse it.
  it.each([
    ['src/schemas/webhooks.ts', "import { recordEvents } from '../domain/events.js'"],
    ['src/schemas/parse.ts', "import { ApiError } from '../domain/errors.js'"],
    ['src/store/games.ts', "import type { Caller } from '../domain/caller.js'"],
    ['src/webhooks/dispatcher.ts', "import type { Config } from '../config.js'"],
    ['src/http/server.ts', "import { mcpRoutes } from '../mcp/route.js'"],
    ['src/mcp/tools/games.ts', "import { registerOperations } from '../../http/register.js'"],
    ['src/mcp/server.ts', "import { listGames } from '../store/games.js'"],
    ['src/cli/commands/app.ts', "import { findGame } from '../../store/games.js'"],
    ['src/cli/commands/mcp.ts', "import { createMcpServer } from '../../mcp/server.js'"],
    ['src/operations/games.ts', "import { API_PREFIX } from '../http/server.js'"],
    ['src/domain/games/games.ts', "import { OPERATIONS } from '../../operations/index.js'"],
    ['src/domain/core/events.ts', "import { upsertGames } from '../games/games.js'"],
    ['src/domain/games/games.ts', "import { listOpenGames } from '../pages/open-games.js'"],
    ['src/domain/payments/payments.ts', "import { startSender } from '../../notifications/sender.js'"],
  ])('lint refuses %s importing across a floor', async (filePath, line) => {
    expect(await lint(`${line}\nexport const probe = 1\n`, filePath)).toContain('refdesk/imports')
  })

  it('lets a chapter use domain/notifications/ though the floor notifications/ is out of its reach', async () => {
    const line = "import { notifyPaid } from '../notifications/notifications.js'"
    expect(
      await lint(`${line}\nexport const probe = notifyPaid\n`, 'src/domain/payments/payments.ts'),
    ).toEqual([])
  })

  it('keeps the route modules of web/ siblings: none imports another', () => {
    const routes = join(SRC, 'web/routes')
    const crossings = [...graph]
      .filter(([file]) => file.startsWith(routes))
      .flatMap(([file, imports]) =>
        imports
          .filter((to) => to.startsWith(routes))
          .map((to) => `${relative(SRC, file)} -> ${relative(SRC, to)}`),
      )
    expect(crossings).toEqual([])
  })

  it("names each route module's export for its page: routes/organize-game.ts exports organizeGameRoutes", () => {
    const routes = join(SRC, 'web/routes')
    const misnamed = readdirSync(routes).filter((name) => {
      const page = name.replace(/\.ts$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
      const exports = [...readFileSync(join(routes, name), 'utf8').matchAll(/^export function (\w+)/gm)]
      return exports.map((m) => m[1]).join() !== `${page}Routes`
    })
    expect(misnamed).toEqual([])
  })

  it.each([
    ['src/domain/games/games.ts', 'export const at = Date.now()\n'],
    ['src/web/pages.ts', 'export const at = new Date()\n'],
    ['src/operations/games.ts', 'export const at = new Date(Date.now())\n'],
  ])('lint refuses %s reading the time beside Deps.clock', async (filePath, text) => {
    expect(await lint(text, filePath)).toContain('no-restricted-syntax')
  })

  it('lint refuses reading the environment outside config.ts', async () => {
    expect(await lint('export const url = process.env.DATABASE_URL\n', 'src/mcp/route.ts')).toContain(
      'no-restricted-properties',
    )
  })
})
