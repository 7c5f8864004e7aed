import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Routes, MCP tools and CLI commands reach data only through domain services.
const noStore = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['**/store/*', '**/store/**'],
          message: 'Call a domain service; only domain/ talks to store/.',
        },
      ],
    },
  ],
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // Tests read loosely typed JSON replies; `any` there keeps assertions short.
  { files: ['test/**/*.ts', 'reliability/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src/http/**/*.ts', 'src/mcp/**/*.ts', 'src/cli/**/*.ts'], rules: noStore },
)
