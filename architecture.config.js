// The floors of src/: what each folder (or top-level file) may import besides its own files. ESLint
// enforces it per folder and test/architecture.test.ts checks the resolved import graph against it.
export const LAYERS = {
  schemas: [],
  clock: [],
  net: [],
  store: ['schemas'],
  domain: ['store', 'schemas', 'clock'],
  webhooks: ['store', 'schemas', 'clock', 'metrics', 'net'],
  notifications: ['store', 'schemas', 'clock', 'metrics'],
  operations: ['domain', 'schemas'],
  http: ['operations', 'domain', 'schemas', 'metrics'],
  mcp: ['operations', 'domain', 'schemas', 'metrics'],
  web: ['domain', 'schemas', 'clock'],
  metrics: [],
  logger: [],
  config: ['webhooks', 'notifications', 'web', 'http', 'store', 'domain', 'net'],
  app: [
    'http',
    'mcp',
    'web',
    'webhooks',
    'notifications',
    'operations',
    'domain',
    'store',
    'schemas',
    'config',
    'metrics',
    'clock',
    'net',
  ],
  cli: ['app', 'config', 'logger', 'webhooks', 'notifications', 'domain', 'schemas'],
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
