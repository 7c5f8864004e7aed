// Each template reads only what its type in src/web/views.ts promises (with what pages.ts gives every page):
// a field a route hands over but the type does not name is a compile error (pages.ts `SendPage`), and one a
// template reads that nobody promised is caught here, before a page renders it as blank.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const WEB = fileURLToPath(new URL('../../src/web/', import.meta.url))

/** The properties of a named interface of a source file, as the checker resolves them. */
function properties(checker: ts.TypeChecker, file: ts.SourceFile, name: string): ts.Symbol[] {
  const node = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  )
  if (!node) throw new Error(`no interface ${name} in ${file.fileName}`)
  return checker.getPropertiesOfType(checker.getTypeAtLocation(node))
}

/** Each view's fields, by its name: its own data and what every page gets. */
function promisedFields(): Map<string, Set<string>> {
  const files = [join(WEB, 'views.ts'), join(WEB, 'pages.ts')]
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const [views, pages] = files.map((f) => program.getSourceFile(f)!)
  const context = properties(checker, pages!, 'PageContext').map((p) => p.name)
  return new Map(
    properties(checker, views!, 'Views').map((view) => {
      const own = checker.getPropertiesOfType(checker.getTypeOfSymbol(view)).map((p) => p.name)
      return [view.name, new Set([...own, ...context])]
    }),
  )
}

describe('the templates of src/web/views/', () => {
  const promised = promisedFields()
  const templates = readdirSync(join(WEB, 'views'))
    .filter((name) => name.endsWith('.eta') && !name.startsWith('_') && name !== 'layout.eta')
    .map((name) => name.replace(/\.eta$/, ''))

  it('are each a view of views.ts, and every view has its template', () => {
    expect(templates.sort()).toEqual([...promised.keys()].sort())
  })

  it('read only fields their type promises', () => {
    const unpromised = templates.flatMap((view) => {
      const text = readFileSync(join(WEB, 'views', `${view}.eta`), 'utf8')
      const read = new Set([...text.matchAll(/\bit\.(\w+)/g)].map((m) => m[1]!))
      return [...read]
        .filter((field) => !promised.get(view)?.has(field))
        .map((field) => `${view}: it.${field}`)
    })
    expect(unpromised).toEqual([])
  })
})
