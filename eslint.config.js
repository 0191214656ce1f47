// @ts-check
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-*/',
      '.cache/',
      '.astro/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_`-prefixed names are intentionally unused (callback signatures).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Template literals with numbers are common and safe in URLs and messages.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Pages read a narrowed context instead (`locals.tenant`, `locals.tenantMatch`, `bookingTenant()`).
    files: ['src/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  ...astro.configs.recommended,
  {
    // .astro files are type-checked by `astro check`; the TS project service does not load them.
    files: ['**/*.astro', '**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // One reader of the environment: src/lib/settings/settings.ts (schema, defaults and checks in
    // src/lib/settings/schema.ts). Everything else, the build and `npm start` included, reads
    // `settings()`; a variable read elsewhere would escape the start-up check and the README table.
    files: [
      'src/**/*.{ts,astro}',
      'astro.config.mjs',
      'scripts/start.mjs',
      'scripts/build-static.ts',
    ],
    ignores: ['src/lib/settings/settings.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read settings() from src/lib/settings/settings.ts (declare the variable in schema.ts).',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']",
          message:
            'Read settings() from src/lib/settings/settings.ts (declare the variable in schema.ts).',
        },
        {
          // Astro's build flags (DEV, PROD, MODE, SSR, BASE_URL, SITE) are fine; a variable is not.
          selector:
            "MemberExpression[object.type='MemberExpression'][object.object.type='MetaProperty'][object.property.name='env']:not([property.name=/^(DEV|PROD|MODE|SSR|BASE_URL|SITE)$/])",
          message:
            'Read settings() from src/lib/settings/settings.ts: import.meta.env is fixed at build time.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(virtual:)?astro:env(/|$)',
              message: 'Read settings() from src/lib/settings/settings.ts (one schema, not two).',
            },
            {
              // The site follows the API contracts; only tests and scripts start the mock.
              regex: String.raw`(^|/)mock/`,
              message: 'The site never imports the contract mock.',
            },
          ],
        },
      ],
    },
  },
  {
    // Pages, components, actions and middleware reach the upstream APIs through the feature modules
    // in src/lib/<area>/, never through a client; the API's data types (schema.ts) are fine.
    files: ['src/**/*.{ts,astro}'],
    ignores: ['src/lib/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`(^|/)lib/(publishing|lodging|upstream)/`,
              allowTypeImports: true,
              message:
                'Call the upstream APIs through a feature module in src/lib/<area>/ (add a function there).',
            },
          ],
        },
      ],
    },
  },
);
