#!/usr/bin/env node
// `npm run test:pg`: the whole suite against PostgreSQL (TEST_DATABASE_URL, default: the local server).
import { spawnSync } from 'node:child_process'

const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
}
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
