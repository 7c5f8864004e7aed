// What a database URL means, in one place: `postgres://…` is PostgreSQL; `file:PATH` or a bare path is SQLite.
// Any other scheme is refused: `mysql://x` taken for a path would quietly create `./mysql:/x`.

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

export function sqlitePath(url: string): string {
  return url.startsWith('file:') ? url.slice('file:'.length) : url
}

/**
 * Why the URL names no database RefDesk can open, or null. Only the scheme is quoted: the rest may hold a
 * password. A one-letter scheme is a Windows drive (`C:\…`), a plain path.
 */
export function unsupportedDatabaseUrl(url: string): string | null {
  if (isPostgresUrl(url)) return null
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(url)?.[1]
  if (scheme === undefined || scheme === 'file') return null
  return `unsupported database URL "${scheme}:…": use file:PATH or a plain path (SQLite), or postgres://… or postgresql://… (PostgreSQL)`
}
