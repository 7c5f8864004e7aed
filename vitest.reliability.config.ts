import { defineConfig } from 'vitest/config'

// `npm run test:reliability` (scripts/test-reliability.mjs) runs this suite once on SQLite and once on
// PostgreSQL; *.pg.test.ts files need PostgreSQL and belong to the second pass alone.
export default defineConfig({
  test: {
    include: ['reliability/**/*.test.ts'],
    exclude: process.env.TEST_DATABASE_URL ? [] : ['reliability/**/*.pg.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
})
