// The floors of src/: what each folder (or top-level file) may import besides its own files. ESLint
// enforces it per folder and test/architecture.test.ts checks the resolved import graph against it.
export const LAYERS = {
  schemas: ['time'],
  time: [],
  clock: ['time'],
  duty: ['clock'],
  net: [],
  store: ['schemas', 'time'],
  domain: ['store', 'schemas', 'clock', 'time'],
  webhooks: ['store', 'schemas', 'clock', 'time', 'duty', 'metrics', 'net'],
  notifications: ['store', 'schemas', 'clock', 'time', 'duty', 'metrics', 'net'],
  operations: ['domain', 'schemas'],
  http: ['operations', 'domain', 'schemas', 'metrics'],
  mcp: ['operations', 'domain', 'schemas', 'metrics'],
  web: ['domain', 'schemas', 'clock', 'time', 'net'],
  metrics: [],
  logger: [],
  config: ['webhooks', 'notifications', 'web', 'http', 'store', 'domain', 'net', 'time'],
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
    'time',
    'duty',
    'net',
  ],
  cli: ['app', 'config', 'logger', 'duty', 'domain', 'schemas'],
  main: ['cli'],
}

// The chapters of src/domain/, each a folder named for a chapter of the design (../docs/architecture.md), and
// the chapters each may import besides its own files: the same two rules hold them (lint and the test).
// core/ is the ground every chapter stands on; pages/ holds one read model per app page, named as its
// route module in web/routes/ and its view in web/views/. The solver in assignor/ is plain code, used by
// plans/ and repairs/. offers/, repairs/, pay-rules/ and game-day/ are the season's chapters to come.
export const CHAPTERS = {
  core: [],
  assignor: [],
  people: ['core'],
  notifications: ['core'],
  partners: ['core'],
  'pay-rules': ['core', 'people'],
  availability: ['core', 'people'],
  games: ['core', 'notifications', 'pay-rules'],
  payments: ['core', 'notifications', 'pay-rules', 'people'],
  assignments: ['core', 'availability', 'games', 'notifications', 'people'],
  offers: ['core', 'assignments', 'availability', 'games', 'notifications', 'people'],
  leagues: ['core', 'assignments', 'games', 'notifications', 'pay-rules', 'people'],
  plans: ['core', 'assignor', 'assignments', 'availability', 'games'],
  'game-day': ['core', 'assignments', 'games', 'notifications', 'payments', 'people'],
  repairs: ['core', 'assignor', 'assignments', 'availability', 'games', 'notifications', 'offers', 'plans'],
  pages: [
    'core',
    'people',
    'notifications',
    'partners',
    'pay-rules',
    'availability',
    'games',
    'payments',
    'assignments',
    'offers',
    'leagues',
    'plans',
    'game-day',
    'repairs',
  ],
}

/** Why a folder may not import another, shown by the lint error. */
export const REASONS = {
  store: 'only domain/ talks to store/: call a domain service',
  http: 'transports never import each other: app.ts mounts them',
  mcp: 'transports never import each other: app.ts mounts them',
  web: 'transports never import each other: app.ts mounts them',
  cli: 'transports never import each other: app.ts mounts them',
}
