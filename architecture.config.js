// The floors of src/: what each folder (or top-level file) may import besides its own files. ESLint
// enforces it per folder and test/architecture.test.ts checks the resolved import graph against it.
export const LAYERS = {
  schemas: [],
  clock: [],
  net: [],
  store: ['schemas'],
  domain: ['store', 'schemas', 'clock'],
  webhooks: ['store', 'schemas', 'clock', 'metrics', 'net'],
  operations: ['domain', 'schemas'],
  http: ['operations', 'domain', 'schemas', 'metrics'],
  mcp: ['operations', 'domain', 'schemas', 'metrics'],
  web: ['domain', 'schemas', 'clock'],
  metrics: [],
  logger: [],
  config: ['webhooks', 'web', 'http', 'store', 'domain', 'net'],
  app: [
    'http',
    'mcp',
    'web',
    'webhooks',
    'operations',
    'domain',
    'store',
    'schemas',
    'config',
    'metrics',
    'clock',
    'net',
  ],
  cli: ['app', 'config', 'logger', 'webhooks', 'domain', 'schemas'],
  main: ['cli'],
}

/** Why a folder may not import another, shown by the lint error. */
export const REASONS = {
  store: 'only domain/ talks to store/: call a domain service',
  http: 'transports never import each other: app.ts mounts them',
  mcp: 'transports never import each other: app.ts mounts them',
  web: 'transports never import each other: app.ts mounts them',
  cli: 'transports never import each other: app.ts mounts them',
}
