import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { startTestOrigin } from './helpers/startTestOrigin.js';

describe('TLS', () => {
  it('serves HTTPS with the configured key and certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-tls-'));
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const origin = await startTestOrigin();
    origin.produce(4);
    const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 1, logLevel: 'silent', tls: { keyPath, certPath } }));
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
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
