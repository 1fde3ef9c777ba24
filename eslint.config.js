// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'docs/api/**', '**/coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Files no package's tsconfig includes: root scripts and the root vitest config.
          allowDefaultProject: ['*.js', '*.mjs', 'vitest.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The type-check configs include the DOM library (packages must run in browsers), which declares globals with
      // everyday names: a missing `const { history } = context` would type-check against `window.history`.
      'no-restricted-globals': [
        'error',
        ...['history', 'name', 'length', 'event', 'status', 'close', 'open', 'parent', 'top', 'self', 'origin', 'external', 'find', 'print', 'stop', 'closed', 'opener', 'screen', 'frames', 'scroll', 'blur', 'focus'].map(
          (name) => ({ name, message: `\`${name}\` here is the browser global; declare or import the value you mean.` }),
        ),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'Use explicit named exports (house style: no `export *` in implementation packages).',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
);
