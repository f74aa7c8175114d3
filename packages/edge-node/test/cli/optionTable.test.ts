import { HOLD_POLICY_DEFAULTS, STREAM_DEFAULTS } from '@ethle/core';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/parseServeArgs.js';
import { runServe } from '../../src/cli/serve.js';
import { serveUsage } from '../../src/cli/serveUsage.js';
import { createEdgeConfig } from '../../src/config/createEdgeConfig.js';
import { EDGE_OPTIONS } from '../../src/config/EDGE_OPTIONS.js';
import type { EdgeConfigInput } from '../../src/config/EdgeConfig.js';
import type { EdgeOption } from '../../src/config/EdgeOption.js';

async function help(): Promise<string> {
  let out = '';
  const code = await runServe(['--help'], { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => undefined } });
  expect(code).toBe(0);
  return out;
}

/** An option only the table knows (no flag, type or check written for it anywhere else). */
const probeJitter = {
  key: 'probeJitterMs',
  rule: { type: 'ms', min: 0, max: 1000, default: 50 },
  cli: { flag: 'probe-jitter-ms', arg: 'MS', help: ['spread of the origin probes (default {default})'] },
} as unknown as EdgeOption;
/** … and one inside an object option. */
const cacheShards = {
  key: 'cache.shards',
  rule: { type: 'integer', min: 1, max: 64, default: 1 },
  cli: { flag: 'cache-shards', arg: 'N', help: ['segment cache shards'] },
} as unknown as EdgeOption;
const table = [...EDGE_OPTIONS, probeJitter, cacheShards];

describe('the option table', () => {
  it('--help lists every flag of the table, and every flag serve had', async () => {
    const text = await help();
    for (const o of EDGE_OPTIONS) if (o.cli !== undefined) expect(text).toContain(`--${o.cli.flag} `);
    // The flags ethle-edge serve has always taken (scripts and docs use them).
    for (const flag of [
      'origin',
      'origin-public-url',
      'config',
      'port',
      'host',
      'hold',
      'role',
      'max-hold',
      'hold-parts',
      'backhaul-rtt-ms',
      'lower-hold-after',
      'hold-floor',
      'segment-start',
      'default-ran-mbps',
      'rni-url',
      'ran-fail-action',
      'pathway',
      'public-url',
      'steering-url',
      'session-secret-file',
      'egress-capacity-mbps',
      'collector',
      'collector-label',
      'min-receiver-mbps',
      'max-connections-per-client',
      'tls-key',
      'tls-cert',
      'workers',
      'log-level',
    ])
      expect(text).toContain(`--${flag} `);
  });

  it('has one entry per key and per flag', () => {
    const keys = EDGE_OPTIONS.flatMap((o) => (o.key === undefined ? [] : [o.key]));
    const flags = EDGE_OPTIONS.flatMap((o) => (o.cli === undefined ? [] : [o.cli.flag]));
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(flags).size).toBe(flags.length);
  });

  it("takes the core's defaults where the core owns them (the service worker reads the same)", () => {
    expect(createEdgeConfig({ origin: 'http://x' })).toMatchObject({
      maxHold: HOLD_POLICY_DEFAULTS.maxHold,
      initialWindow: HOLD_POLICY_DEFAULTS.initialWindow,
      defaultRanMbps: HOLD_POLICY_DEFAULTS.defaultRanMbps,
      lowerHoldAfterSegments: HOLD_POLICY_DEFAULTS.lowerAfterSegments,
      lowerHoldAfterSamples: HOLD_POLICY_DEFAULTS.lowerAfterSamples,
      holdFloor: HOLD_POLICY_DEFAULTS.holdFloor,
      redirectSustainMs: HOLD_POLICY_DEFAULTS.redirectSustainMs,
      streamIdleMs: STREAM_DEFAULTS.idleMs,
      streamQueryParams: STREAM_DEFAULTS.streamQueryParams,
    });
  });

  it('maps flags onto (nested) config keys over a config file', () => {
    const args = parseServeArgs(
      ['--origin', 'http://o', '--rni-url', 'http://r/rni/v2', '--collector', 'http://c', '--collector-label', 'e1', '--max-hold', '6'],
      EDGE_OPTIONS,
    );
    expect(args).toEqual({
      help: false,
      workers: undefined,
      input: {
        origin: 'http://o',
        rni: { url: 'http://r/rni/v2' },
        collector: { url: 'http://c', label: 'e1' },
        maxHold: 6,
        logLevel: 'info',
      },
    });
    // A label without a collector names nothing and is left out, as before.
    expect(parseServeArgs(['--collector-label', 'e1'], EDGE_OPTIONS)).toEqual({
      help: false,
      workers: undefined,
      input: { logLevel: 'info' },
    });
  });

  it('a new option added only to the table is in --help, parsed and validated', () => {
    const text = serveUsage(table);
    expect(text).toMatch(/^ {2}--probe-jitter-ms MS {4}spread of the origin probes \(default 50\)$/m);
    expect(text).toMatch(/^ {2}--cache-shards N +segment cache shards$/m);

    const args = parseServeArgs(['--origin', 'http://o', '--probe-jitter-ms', '20.4', '--cache-shards', '3'], table);
    if (args.help) throw new Error('not help');
    const input = args.input as EdgeConfigInput & { probeJitterMs?: number; cache?: { shards?: number } };
    expect(input.probeJitterMs).toBe(20.4);
    expect(input.cache?.shards).toBe(3);
    const config = createEdgeConfig({ ...input, cache: { ...input.cache, maxBytes: 64 * 1024 * 1024 } }, table);
    // An `ms` rule rounds up to what a timer takes; the object option keeps its other fields.
    expect(config).toMatchObject({ probeJitterMs: 21, cache: { shards: 3, maxBytes: 64 * 1024 * 1024, maxAgeMs: 120_000 } });
    expect(createEdgeConfig({ origin: 'http://o' }, table)).toMatchObject({ probeJitterMs: 50, cache: { shards: 1 } });

    expect(() => parseServeArgs(['--probe-jitter-ms', 'soon'], table)).toThrow(/--probe-jitter-ms: expected a number, got "soon"/);
    expect(() => createEdgeConfig({ origin: 'http://o', probeJitterMs: 5000 } as EdgeConfigInput, table)).toThrow(
      /probeJitterMs: must be between 0 and 1000, got 5000/,
    );
    expect(() => createEdgeConfig({ origin: 'http://o', cache: { shards: 1.5 } } as EdgeConfigInput, table)).toThrow(
      /cache\.shards: expected an integer/,
    );
    // Without its entry the same option is unknown: the table is the only place that knows it.
    expect(() => createEdgeConfig({ origin: 'http://o', probeJitterMs: 20 } as EdgeConfigInput)).toThrow(/probeJitterMs: unknown option/);
    expect(() => parseServeArgs(['--probe-jitter-ms', '20'], EDGE_OPTIONS)).toThrow(/Unknown option '--probe-jitter-ms'/);
  });
});
