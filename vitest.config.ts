import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build-dist.ts'],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    pool: 'forks',
  },
});
