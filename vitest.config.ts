import { defineConfig } from 'vitest/config';

// Tests import workspace packages by name; the "source" export condition points
// them at src/ so the suite never runs against a stale dist/.
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'node', 'default'] },
  ssr: { resolve: { conditions: ['source', 'import', 'node', 'default'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'site/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
