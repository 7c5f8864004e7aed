// The settings tables of docs/ say what the settings table (src/config/settings.ts) says: each row's default
// and flag are the table's, and every setting of `serve` and `worker` has a row somewhere.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SETTINGS, shownDefault } from '../../src/config/settings.js'

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url))

interface Row {
  page: string
  cells: Record<string, string>
}

/** Every row of every Markdown table in docs/, by its header's column names. */
function tableRows(): Row[] {
  const rows: Row[] = []
  for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    let header: string[] | undefined
    for (const line of readFileSync(join(DOCS, page), 'utf8').split('\n')) {
      if (!line.startsWith('|')) {
        header = undefined
        continue
      }
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim())
      if (!header) header = cells
      else if (!cells.every((c) => /^-+$/.test(c))) {
        rows.push({ page, cells: Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])) })
      }
    }
  }
  return rows
}

const unquote = (cell: string) => cell.replaceAll('`', '')

describe('the settings tables of docs/', () => {
  const rows = tableRows().filter((row) => row.cells.environment !== undefined)
  const rowsOf = (name: string) => rows.filter((row) => unquote(row.cells.environment ?? '') === name)

  it.each(SETTINGS.map((s) => [s.name, s] as const))('%s: docs show its default and flag', (_, setting) => {
    for (const { page, cells } of rowsOf(setting.name)) {
      const shown = shownDefault(setting)
      if (shown !== undefined)
        expect(unquote(cells.default ?? ''), page).toMatch(new RegExp(`^${escape(shown)}`))
      if (cells.flag !== undefined) expect(unquote(cells.flag), page).toBe(setting.flag ?? '')
    }
  })

  it('documents every setting of serve and worker in a table', () => {
    const missing = SETTINGS.filter((s) => s.commands.some((c) => c !== 'mcp') && rowsOf(s.name).length === 0)
    expect(missing.map((s) => s.name)).toEqual([])
  })

  it('finds the tables it checks', () => {
    expect(rowsOf('REFDESK_RATE_LIMIT')).not.toEqual([])
    expect(rowsOf('PORT')[0]?.cells.flag).toBe('`--port`')
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
