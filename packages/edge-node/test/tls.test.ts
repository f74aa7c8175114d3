import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { startTestOrigin } from './helpers/startTestOrigin.js';

const fixtures = new URL('./fixtures/tls/', import.meta.url).pathname;

describe('TLS', () => {
  it('serves HTTPS with the configured key and certificate', async () => {
    const origin = await startTestOrigin();
    origin.produce(4);
    const edge = await startEdge(
      createEdgeConfig({
        origin: origin.url,
        port: 0,
        hold: 1,
        logLevel: 'silent',
        tls: { keyPath: `${fixtures}key.pem`, certPath: `${fixtures}cert.pem` },
      }),
    );
    try {
      expect(edge.url.startsWith('https://')).toBe(true);
      const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
      const r = await request(`${edge.url}/live/t/index.m3u8`, { dispatcher });
      expect(r.statusCode).toBe(200);
      expect(await r.body.text()).toContain('#EXTM3U');
      await dispatcher.close();
    } finally {
      await edge.close();
      await origin.close();
    }
  });
});
