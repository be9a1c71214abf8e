import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Config for test/models + test/agents alone: no repo-level globalSetup (Postgres etc.), which these tests do not need. */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/models/**/*.test.ts', 'test/agents/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
