// A partner's typed client: types generated from the document with openapi-typescript, and a small
// openapi-fetch client that must typecheck against them, error codes typed as their enums.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { fetchDocument } from './helpers.js'

// Inside node_modules, so that the client resolves openapi-fetch as a partner's project would.
const DIR = fileURLToPath(
  new URL(`../../node_modules/.cache/refdesk-typed-client-${process.pid}/`, import.meta.url),
)

const CLIENT = `
import createClient from 'openapi-fetch'
import type { paths } from './api.js'

const client = createClient<paths>({ baseUrl: 'https://refdesk.partner.test' })

export async function assign(gameId: string, userId: string): Promise<string[]> {
  const { data, error } = await client.POST('/api/v1/games/{gameId}/assign', {
    params: { path: { gameId }, header: { 'idempotency-key': 'retry-1' } },
    body: { userId },
  })
  if (error) {
    const code: 'game_not_found' | 'position_taken' | 'not_a_league_official' | string = error.error
    // @ts-expect-error: not a code this operation answers
    const wrong: typeof error.error = 'league_not_found'
    return [code, wrong]
  }
  return data.data.positions.map((position) => position.official?.name ?? position.status)
}

export async function leagues(): Promise<number> {
  const { data } = await client.GET('/api/v1/leagues')
  const first = data?.data[0]
  // @ts-expect-error: leagues carry no such field
  void first?.games
  return first?.gameCount ?? 0
}

export async function cancel(gameId: string): Promise<void> {
  const { error } = await client.DELETE('/api/v1/games/{gameId}', { params: { path: { gameId } } })
  const notFound: 'game_not_found' | 'not_found' | 'unauthorized' | 'rate_limited' | undefined = error?.error
  void notFound
}
`

describe('a typed client generated from the document', () => {
  afterAll(async () => {
    await rm(DIR, { recursive: true, force: true })
  })

  it('typechecks against openapi-typescript types, error codes included', async () => {
    const types = astToString(await openapiTS(await fetchDocument()))
    await mkdir(DIR, { recursive: true })
    await writeFile(join(DIR, 'api.d.ts'), types)
    await writeFile(join(DIR, 'client.ts'), CLIENT)
    const program = ts.createProgram([join(DIR, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    })
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(errors).toEqual([])
  })
})
