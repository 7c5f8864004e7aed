// The tool list is derived from the operations: one tool per operation, each description listing exactly
// its operation's error codes with what to do about them, and instructions that name the guarded tools.
import { describe, expect, it } from 'vitest'
import { ERROR_STATUS, type ErrorCode } from '../../src/domain/core/errors.js'
import { errorHint } from '../../src/mcp/error-hints.js'
import { INSTRUCTIONS, TOOL_LIST, TOOLS } from '../../src/mcp/server.js'
import { EXTENSION_OPERATIONS, OPERATIONS } from '../../src/operations/index.js'

describe('the MCP tool catalog', () => {
  it('has exactly one tool per spec operation, and the assignor’s four on extensions (DESIGN)', () => {
    const count = (operation: (typeof OPERATIONS)[number]) =>
      TOOLS.filter((spec) => spec.operation === operation).length
    expect(OPERATIONS.filter((operation) => count(operation) !== 1).map((o) => o.operationId)).toEqual([])
    const extensionTools = TOOLS.filter((spec) => EXTENSION_OPERATIONS.includes(spec.operation))
    expect(extensionTools.map((spec) => spec.name)).toEqual([
      'suggest_officials',
      'plan_assignments',
      'get_plan',
      'publish_plan',
    ])
    expect(TOOLS).toHaveLength(OPERATIONS.length + 4)
  })

  it("lists each operation's error codes, and only those, in its tool's description", () => {
    const codesIn = (text: string) =>
      Object.keys(ERROR_STATUS).filter((code) => new RegExp(`\\b${code}\\b`).test(text))
    for (const spec of TOOLS) {
      const description = TOOL_LIST.find((tool) => tool.name === `refdesk_${spec.name}`)!.description!
      const errors = description.slice(description.indexOf('Errors: '))
      const expected = spec.operation.errors.filter((code) => code !== 'invalid_json')
      expect(codesIn(errors).sort(), spec.name).toEqual([...expected].sort())
    }
  })

  it('describes the games’ bodies as their schemas are: crews and lengths on import, every field of update_game', () => {
    const described = (name: string) =>
      TOOL_LIST.find((tool) => tool.name === `refdesk_${name}`)!.description!
    const upsert = described('upsert_games')
    expect(upsert).not.toContain('one open position each')
    for (const field of ['positions', 'durationMinutes', 'minLevel']) expect(upsert).toContain(field)
    const update = TOOL_LIST.find((tool) => tool.name === 'refdesk_update_game')!
    const fields = Object.keys((update.inputSchema as { properties: object }).properties)
    const settable = fields.filter((field) => !['gameId', 'source', 'status'].includes(field))
    expect(settable).toContain('durationMinutes')
    for (const field of settable) expect(described('update_game')).toContain(field)
  })

  it('has advice for every code a tool can answer', () => {
    const codes = new Set(TOOLS.flatMap((spec) => spec.operation.errors))
    codes.delete('invalid_json')
    expect([...codes].filter((code: ErrorCode) => errorHint(code) === undefined)).toEqual([])
  })

  it('names the tool count and every tool that previews before it changes anything', () => {
    expect(INSTRUCTIONS).toContain(`Each of the ${TOOLS.length} tools`)
    for (const spec of TOOLS.filter((s) => s.preview)) expect(INSTRUCTIONS).toContain(spec.name)
    for (const spec of TOOLS.filter((s) => !s.preview))
      expect(INSTRUCTIONS).not.toMatch(new RegExp(`\\b${spec.name}\\b`))
  })
})
