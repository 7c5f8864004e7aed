// docs/architecture.md's two tables say what architecture.config.js says: each floor of LAYERS has its row,
// with what it may import and nothing it may import among what it must not, and each chapter of CHAPTERS
// has its row, in the table's order, marked _to come_ exactly while src/domain/ has no folder for it.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CHAPTERS, LAYERS } from '../../architecture.config.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').split('\n')
const FLOORS = LAYERS

const cellsOf = (line: string): string[] =>
  line.startsWith('|')
    ? line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
    : []

/** The rows of the page's table whose header starts with `first`, by the header's column names. */
function tableOf(first: string): Record<string, string>[] {
  const start = PAGE.findIndex((line) => cellsOf(line)[0] === first)
  if (start === -1) return []
  const header = cellsOf(PAGE[start]!)
  const rows: Record<string, string>[] = []
  for (const line of PAGE.slice(start + 2)) {
    const cells = cellsOf(line)
    if (cells.length === 0) break
    rows.push(Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])))
  }
  return rows
}

/** The floors (or chapters) a cell names: `domain/` is domain, `clock.ts` is clock. */
const namesIn = (cell: string): string[] => [...cell.matchAll(/`([\w-]+)(?:\/|\.ts)`/g)].map((m) => m[1]!)

/** What a row says its floor may import: nothing, everything but the floors named, or the floors named. */
function mayImport(floor: string, cell: string): string[] {
  if (cell === 'nothing of ours') return []
  if (cell.startsWith('everything but ')) {
    return Object.keys(FLOORS).filter((other) => other !== floor && !namesIn(cell).includes(other))
  }
  return namesIn(cell)
}

const floorRows = tableOf('folder').map((cells) => ({ cells, floor: namesIn(cells.folder ?? '')[0] ?? '' }))
const chapterRows = tableOf('chapter')

describe('the floors table of docs/architecture.md', () => {
  it('has one row for each floor of LAYERS', () => {
    expect(floorRows.map((row) => row.floor).sort()).toEqual(Object.keys(FLOORS).sort())
  })

  it.each(floorRows.map((row) => [row.floor, row.cells] as const))(
    '%s: may import what LAYERS says',
    (floor, cells) => {
      expect(mayImport(floor, cells['may import']!).sort()).toEqual([...(FLOORS[floor] ?? [])].sort())
    },
  )

  it.each(floorRows.map((row) => [row.floor, row.cells] as const))(
    '%s: forbids nothing LAYERS allows',
    (floor, cells) => {
      const allowed = FLOORS[floor] ?? []
      expect(namesIn(cells['must not import']!).filter((name) => allowed.includes(name))).toEqual([])
    },
  )
})

describe('the chapters table of docs/architecture.md', () => {
  it('has one row for each chapter of CHAPTERS, in its order', () => {
    expect(chapterRows.map((row) => namesIn(row.chapter!)[0])).toEqual(Object.keys(CHAPTERS))
  })

  it.each(chapterRows.map((row) => [row.chapter!, row] as const))(
    '%s: is marked to come exactly while it has no folder',
    (cell) => {
      const folder = join(ROOT, 'src/domain', namesIn(cell)[0]!)
      expect(cell.endsWith('_to come_')).toBe(!existsSync(folder))
    },
  )
})
