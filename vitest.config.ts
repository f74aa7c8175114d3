import { defineConfig } from 'vitest/config';

// Unit and integration tests run against the TypeScript sources of every workspace package:
// the custom "source" export condition points each package's entry at src/ instead of dist/.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'module', 'import', 'default'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
