import { fileURLToPath } from 'node:url';
import { createLogger, loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';

// `npm run build` must not warn: Vite reports config features its future native loader will not
// support (e.g. __dirname) as a warning on every build.
const dir = fileURLToPath(new URL('..', import.meta.url));

describe('the demo’s Vite configs', () => {
  it.each(['vite.config.ts', 'vite.report.config.ts'])('%s loads without a warning', async (file) => {
    const warnings: string[] = [];
    const logger = createLogger('warn');
    logger.warn = (msg) => void warnings.push(msg);
    logger.warnOnce = (msg) => void warnings.push(msg);
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, `${dir}${file}`, dir, 'warn', logger);
    expect(loaded?.config.root).toBe(dir.replace(/\/$/, ''));
    expect(warnings).toEqual([]);
  });
});
