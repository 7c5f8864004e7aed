import { defineConfig } from 'vitest/config'

// Files that open no database: they prove the same thing on either, so `npm run test:pg` leaves them to
// the SQLite pass and CI does not pay for them twice.
const DATABASE_FREE = [
  'test/architecture.test.ts',
  'test/clock.test.ts',
  'test/time.test.ts',
  'test/config/**',
  'test/docs/**',
  'test/domain/assignor/**',
  'test/mcp/catalog.test.ts',
  'test/openapi/examples.test.ts',
  'test/openapi/extensions.test.ts',
  'test/openapi/lint.test.ts',
  'test/openapi/typed-client.test.ts',
  'test/webhooks/address-guard.test.ts',
  'test/webhooks/dispatcher-units.test.ts',
]

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // *.pg.test.ts exercise PostgreSQL-only behaviour; they belong to `npm run test:pg` alone.
    exclude: process.env.TEST_DATABASE_URL ? DATABASE_FREE : ['test/**/*.pg.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Vitest's default on two cores is one worker, idle while a test waits on a child process, a socket or
    // the database; two workers overlap those waits. The files share one module graph per worker (no
    // state lives in modules: every test builds its own app, database and clock), which saves the
    // re-import of the service for each of the ~90 files.
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
