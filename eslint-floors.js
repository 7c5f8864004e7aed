// The floors of src/ and the chapters of src/domain/ as one lint rule: each import is resolved against the
// file that writes it, so a chapter that shares a name with a floor (domain/notifications/ beside
// notifications/) is told apart by where it is, not by how its path is spelled.
import { dirname, relative, resolve, sep } from 'node:path'
import { CHAPTERS, LAYERS, REASONS } from './architecture.config.js'

const SRC = resolve(import.meta.dirname, 'src')

/** The floor of a file of src/ and, inside domain/, its chapter; null outside src/. */
export function placeOf(file) {
  const parts = relative(SRC, file).split(sep)
  if (parts[0] === '..' || parts[0] === '') return null
  const layer = parts[0].replace(/\.(ts|js|mjs)$/, '')
  return { layer, chapter: layer === 'domain' && parts.length > 2 ? parts[1] : null }
}

/** Why `from` may not import `to`, or null when the tables allow it. */
export function refusal(from, to) {
  if (from.layer !== to.layer) {
    if ((LAYERS[from.layer] ?? []).includes(to.layer)) return null
    const reason = REASONS[to.layer] ? `; ${REASONS[to.layer]}` : ''
    return `${from.layer} may import only ${(LAYERS[from.layer] ?? []).join(', ') || 'its own files'}${reason} (architecture.config.js).`
  }
  if (from.layer !== 'domain' || from.chapter === to.chapter || from.chapter === null) return null
  const allowed = CHAPTERS[from.chapter] ?? []
  if (to.chapter !== null && allowed.includes(to.chapter)) return null
  const may = allowed.length
    ? `may import only the chapters ${allowed.join(', ')}`
    : 'imports no other chapter'
  return `domain/${from.chapter}/ ${may} (CHAPTERS in architecture.config.js).`
}

const floors = {
  meta: { type: 'problem', schema: [], docs: { description: 'imports stay on their floor' } },
  create(context) {
    const from = placeOf(context.filename)
    if (!from) return {}
    const check = (node) => {
      const spec = node?.value
      if (typeof spec !== 'string' || !spec.startsWith('.')) return
      const to = placeOf(resolve(dirname(context.filename), spec))
      const why = to && refusal(from, to)
      if (why) context.report({ node, message: `'${spec}': ${why}` })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    }
  },
}

export const floorsPlugin = { rules: { imports: floors } }
