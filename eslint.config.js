import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { floorsPlugin } from './eslint-floors.js'

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
  {
    // The floors of src/ and the chapters of domain/ (architecture.config.js), each import resolved.
    files: ['src/**/*.ts', 'src/**/*.mjs'],
    plugins: { refdesk: floorsPlugin },
    rules: { 'refdesk/imports': 'error' },
  },
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
