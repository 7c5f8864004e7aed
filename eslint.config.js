import { existsSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { LAYERS, REASONS } from './architecture.config.js'

const folders = Object.keys(LAYERS)

// A folder's own files are imported as './x.js' (or '../x.js' from a subfolder); every other floor is
// named in the path: a folder as '../store/x.js' or '../../store/x.js', a top-level file as '../config.js'.
// A floor may be both (config.ts and config/).
const exists = (path) => existsSync(new URL(`./src/${path}`, import.meta.url))
const importsOf = (layer) => [
  ...(exists(layer) ? [`**/${layer}/**`] : []),
  ...(exists(`${layer}.ts`) ? [`./${layer}.js`, `../${layer}.js`, `../../${layer}.js`] : []),
]

function floorRules(layer) {
  const allowed = new Set([layer, ...LAYERS[layer]])
  const patterns = folders
    .filter((other) => !allowed.has(other))
    .map((other) => ({
      group: importsOf(other),
      message: `${layer} may import only ${LAYERS[layer].join(', ') || 'its own files'}${REASONS[other] ? `; ${REASONS[other]}` : ''} (architecture.config.js).`,
    }))
  return { 'no-restricted-imports': ['error', { patterns }] }
}

const floors = folders.map((layer) => ({
  files: [`src/${layer}/**/*.ts`, `src/${layer}.ts`],
  rules: floorRules(layer),
}))

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // Tests read loosely typed JSON replies; `any` there keeps assertions short.
  {
    files: ['test/**/*.ts', 'browser/**/*.ts', 'reliability/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...floors,
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A function that reads in one sitting.
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
      // A promise is awaited, returned or handed to something that handles its rejection.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Two findings in src/http/, which another branch owns as these rules arrive: body.ts does not await the
    // JSON parse it starts in a callback, docs.ts hands an async hook where Scalar's types expect a sync one.
    // Drop this block once they are settled there.
    files: ['src/http/body.ts', 'src/http/docs.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
  {
    // Rules read the time from Deps.clock, so tests move it. Measurement (durations in metrics and logs) may
    // read the real clock: it lives outside these folders (the assignor's deadline, a measurement too, says
    // so where it reads Date.now).
    files: ['src/domain/**/*.ts', 'src/web/**/*.ts', 'src/operations/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Read the time from deps.clock (isoNow(deps.clock)), so tests can move it.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from deps.clock (isoNow(deps.clock)), so tests can move it.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings in src/config.ts and pass them down.' },
      ],
    },
  },
)
