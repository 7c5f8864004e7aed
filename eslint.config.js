import { existsSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { LAYERS, REASONS } from './architecture.config.js'

const folders = Object.keys(LAYERS)

// A folder's own files are imported as './x.js' (or '../x.js' from a subfolder); every other floor is
// named in the path: a folder as '../store/x.js' or '../../store/x.js', a top-level file as '../config.js'.
const isFolder = (layer) => existsSync(new URL(`./src/${layer}`, import.meta.url))
const importsOf = (layer) =>
  isFolder(layer) ? [`**/${layer}/**`] : [`./${layer}.js`, `../${layer}.js`, `../../${layer}.js`]

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
    rules: {
      // A function that reads in one sitting.
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
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
