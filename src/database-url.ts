// What a database URL means, in one place: `postgres://…` is PostgreSQL; `file:PATH` or a bare path is SQLite.

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

export function sqlitePath(url: string): string {
  return url.startsWith('file:') ? url.slice('file:'.length) : url
}
