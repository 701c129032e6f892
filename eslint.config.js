// The boundaries of the code base, checked by a linter rather than by review alone (docs/boundaries.md):
// no import cycles, Kysely only in repositories and src/db, no branch on the database outside src/db,
// engines entered only through their door, no promise left floating.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importCycles from './scripts/lint/import-cycles.js';

/** Engines whose `index.ts` is the only file the rest of the server imports. */
const ENGINES = ['tools', 'guardrails', 'evaluation'];

/** Files that may speak Kysely: the database layer, repositories, and the SQL pieces repositories share. */
const REPOSITORY_FILES = ['src/db/**', 'src/repositories.ts', 'src/**/*.repo.ts', 'src/**/*.sql.ts'];

/** `x.dialect.name === …`, `dialect.name !== …`, `switch (dialect.name)`: a branch on the database. */
const DIALECT_NAME = "MemberExpression[property.name='name'][object.name=/dialect$/i], MemberExpression[property.name='name'][object.property.name=/dialect$/i]";
const DIALECT_BRANCH = 'Branch on the dialect in src/db: give the Dialect (src/db/dialect.ts) what differs, and ask it.';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'console/**', 'clients/**', 'bench/**', 'scripts/**', 'test/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX, boundaries: importCycles },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'require-yield': 'error',
      // Types included, which import-x/no-cycle skips.
      'boundaries/no-import-cycle': 'error',
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', message: 'Kysely only in repositories (*.repo.ts, *.sql.ts) and src/db: services see repositories.' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: `BinaryExpression > :matches(${DIALECT_NAME})`, message: DIALECT_BRANCH },
        { selector: `SwitchStatement > :matches(${DIALECT_NAME}).discriminant`, message: DIALECT_BRANCH },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ENGINES.map((engine) => ({
            target: `./src/!(${engine})/**`,
            from: `./src/${engine}`,
            except: ['./index.ts'],
            message: `src/${engine} is entered through its door, src/${engine}/index.ts.`,
          })),
        },
      ],
    },
  },
  {
    files: REPOSITORY_FILES,
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/db/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
