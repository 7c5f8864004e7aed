// prepared(build): a Kysely query built and compiled once per dialect and shape, then re-run with new
// parameters. Building and compiling a query costs more than running a primary-key lookup on SQLite, so
// the queries every request runs (authentication, a game with its positions, a league's games) go
// through here. The build function receives placeholders, never values, so it cannot branch on them:
// what varies between calls must be a parameter, and an array parameter's length is part of the shape.
import type { Compilable, CompiledQuery, Kysely } from 'kysely'
import { readDirectly } from './database.js'
import { isPostgres } from './dialect.js'
import type { Db } from './tables.js'

type Param = string | number | null
export type Params = Record<string, Param | readonly Param[]>

class Placeholder {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

export interface PreparedQuery<P extends Params, O> {
  execute(db: Kysely<Db>, params: P): Promise<O[]>
  takeFirst(db: Kysely<Db>, params: P): Promise<O | undefined>
}

export function prepared<P extends Params, O>(
  build: (db: Kysely<Db>, params: P) => Compilable<O>,
): PreparedQuery<P, O> {
  const compiled = new Map<string, CompiledQuery<O>>()

  function compile(db: Kysely<Db>, params: P): CompiledQuery<O> {
    const shape = [isPostgres(db) ? 'pg' : 'sqlite']
    for (const [name, value] of Object.entries(params))
      if (Array.isArray(value)) shape.push(`${name}:${value.length}`)
    const key = shape.join('|')
    let query = compiled.get(key)
    if (!query) {
      const placeholders = Object.fromEntries(
        Object.entries(params).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.map((_, i) => new Placeholder(name, i)) : new Placeholder(name),
        ]),
      ) as unknown as P
      query = build(db, placeholders).compile()
      compiled.set(key, query)
    }
    const bind = (value: unknown): unknown => {
      if (!(value instanceof Placeholder)) return value
      const param = params[value.name]
      return value.index === undefined ? param : (param as readonly Param[])[value.index]
    }
    return { ...query, parameters: query.parameters.map(bind) }
  }

  async function execute(db: Kysely<Db>, params: P): Promise<O[]> {
    const query = compile(db, params)
    const direct = readDirectly(db, query) as O[] | Promise<O[]> | undefined
    return direct ? await direct : (await db.executeQuery(query)).rows
  }

  return {
    execute,
    async takeFirst(db, params) {
      return (await execute(db, params))[0]
    },
  }
}
