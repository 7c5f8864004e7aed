#!/usr/bin/env node
// `npm run test:pack`: the package as a partner installs it. `npm pack`, a global install of the tarball
// into a temporary prefix, then from `/` (no clone in sight): `refdesk --version` and `--help`, a key,
// `refdesk serve` answering /healthz, /docs, the OpenAPI document, /metrics and the API, and
// `refdesk mcp --stdio` answering initialize through that server.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const root = new URL('..', import.meta.url).pathname
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const work = mkdtempSync(join(tmpdir(), 'refdesk-pack-'))
const prefix = join(work, 'prefix')
const bin = join(prefix, 'bin', 'refdesk')
const database = `file:${join(work, 'smoke.sqlite')}`
const step = (text) => console.log(`pack smoke: ${text}`)

function run(file, args, options = {}) {
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options })
}

function check(condition, message) {
  if (!condition) throw new Error(message)
}

/** `refdesk serve` from `/`; resolves with its port once it logs where it listens. */
const METRICS_TOKEN = 'smoke-metrics'

function serve() {
  const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', '0', '--database', database], {
    cwd: '/',
    // /metrics is closed on the service port without a token.
    env: { ...process.env, REFDESK_METRICS_TOKEN: METRICS_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)))
    createInterface({ input: child.stdout }).on('line', (line) => {
      const port = /refdesk listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1]
      if (port) resolve({ port: Number(port), child })
    })
  })
}

/** One JSON-RPC initialize through `refdesk mcp --stdio`; resolves with the server's name. */
function mcpInitialize(baseUrl, key) {
  const child = spawn(bin, ['mcp', '--stdio', '--base-url', baseUrl], {
    cwd: '/',
    env: { ...process.env, REFDESK_API_KEY: key },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-smoke', version } },
  }
  child.stdin.write(`${JSON.stringify(message)}\n`)
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`mcp --stdio exited with ${code}`)))
    createInterface({ input: child.stdout }).on('line', (line) => {
      child.kill('SIGTERM')
      resolve(JSON.parse(line).result.serverInfo.name)
    })
  })
}

let server
try {
  step('npm pack')
  const tarball = join(
    work,
    JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root }))[0].filename,
  )
  step(`npm install -g ${tarball} (prefix ${prefix})`)
  run(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--allow-scripts=better-sqlite3',
      '--no-audit',
      '--no-fund',
      tarball,
    ],
    {
      cwd: '/',
    },
  )

  check(run(bin, ['--version'], { cwd: '/' }).trim() === version, 'refdesk --version')
  check(run(bin, ['--help'], { cwd: '/' }).includes('refdesk serve'), 'refdesk --help')
  step(`refdesk --version and --help from /: ${version}`)

  check(run(bin, ['migrate', '--database', database], { cwd: '/' }).includes('up to date'), 'refdesk migrate')
  const key = run(bin, ['keys', 'issue', '--source', 'smoke', '--database', database], { cwd: '/' })
    .trim()
    .split('\n')
    .at(-1)
  server = await serve()
  const base = `http://127.0.0.1:${server.port}`
  const get = (path, headers = {}) => fetch(`${base}${path}`, { headers })
  check((await get('/healthz')).status === 200, '/healthz')
  check((await (await get('/docs/')).text()).includes('js/scalar.js'), '/docs/')
  check((await (await get('/api/v1/openapi.json')).json()).openapi === '3.1.0', 'openapi.json')
  const metrics = await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })
  check((await metrics.text()).includes('refdesk_http_requests_total'), '/metrics')
  const index = await (await get('/api/v1/', { authorization: `Bearer ${key}` })).json()
  check(index.data?.version === 'v1', 'GET /api/v1/ with the key')
  step(`refdesk serve from /: /healthz, /docs, /api/v1/openapi.json, /metrics and the API answer`)
  check((await mcpInitialize(`${base}/api/v1`, key)) === 'refdesk', 'mcp --stdio initialize')
  step('refdesk mcp --stdio from /: initialize answered')
  console.log('1 passed, 0 failed')
} catch (error) {
  console.error(`pack smoke failed: ${error.message}`)
  process.exitCode = 1
} finally {
  server?.child.removeAllListeners('exit')
  server?.child.kill('SIGTERM')
  rmSync(work, { recursive: true, force: true })
}
