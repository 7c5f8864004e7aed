import { defineConfig } from 'vitest/config'

// `npm run test:browser`: the app in Debian's chromium through playwright-core, against a real server and a
// real SMTP server on loopback. One file, run in order: the tests share one browser and one service.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['browser/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
