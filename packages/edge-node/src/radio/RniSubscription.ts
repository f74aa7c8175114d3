import { request } from 'undici';
import type { RniConfig } from '../config/EdgeConfig.js';
import { ranThroughputFromSignal, rsrpIndexToDbm, rsrqIndexToDb } from './ranThroughputFromSignal.js';

/** Path on the edge where the RNI service POSTs MeasRepUeNotification (reserved prefix /_ethle/). */
export const RNI_CALLBACK_PATH = '/_ethle/rni/notifications';

interface UeRadio {
  mbps: number;
  atMs: number;
}

/**
 * ETSI GS MEC 012 (Radio Network Information) client: subscribes to MeasRepUe notifications and
 * keeps, per UE IPv4 address (associateId type 1), the throughput expected from its latest
 * RSRP/RSRQ (see ranThroughputFromSignal). The subscription is deleted on close().
 */
export class RniSubscription {
  readonly #cfg: RniConfig;
  readonly #ues = new Map<string, UeRadio>();
  #selfHref: string | undefined;

  constructor(cfg: RniConfig) {
    this.#cfg = cfg;
  }

  async subscribe(callbackUrl: string): Promise<void> {
    const body = {
      subscriptionType: 'MeasRepUeSubscription',
      callbackReference: callbackUrl,
      // Empty associateId filter = every UE of the cells this MEC host serves.
      filterCriteriaAssocTri: { trigger: [1, 2, 3, 4, 5] },
    };
    const res = await request(`${this.#cfg.url}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: this.#cfg.timeoutMs,
      bodyTimeout: this.#cfg.timeoutMs,
    });
    const json = (await res.body.json().catch(() => ({}))) as { _links?: { self?: { href?: unknown } } };
    if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`RNI subscription refused: HTTP ${res.statusCode}`);
    const href = json._links?.self?.href;
    this.#selfHref = typeof href === 'string' ? href : res.headers['location']?.toString();
  }

  /**
   * Accept one MeasRepUeNotification body. Returns false (→ 400) when it is not one; the RNI
   * service gets a clear answer and nothing is stored.
   */
  handleNotification(body: unknown, nowMs: number): boolean {
    if (typeof body !== 'object' || body === null) return false;
    const n = body as Record<string, unknown>;
    if (n['notificationType'] !== 'MeasRepUeNotification') return false;
    const rsrp = n['rsrp'];
    const rsrq = n['rsrq'];
    const ids = n['associateId'];
    if (typeof rsrp !== 'number' || typeof rsrq !== 'number' || !Array.isArray(ids)) return false;
    const mbps = ranThroughputFromSignal(rsrpIndexToDbm(rsrp), rsrqIndexToDb(rsrq));
    let stored = false;
    for (const id of ids as Array<{ type?: unknown; value?: unknown }>) {
      if (id?.type === 1 && typeof id.value === 'string') {
        this.#ues.set(id.value, { mbps, atMs: nowMs });
        stored = true;
      }
    }
    return stored;
  }

  /** Expected throughput of the UE at this IPv4 address, if a fresh report exists. */
  lookup(ip: string, nowMs: number): number | undefined {
    const ue = this.#ues.get(ip);
    if (ue === undefined || nowMs - ue.atMs > this.#cfg.cacheMs) return undefined;
    return ue.mbps;
  }

  async close(): Promise<void> {
    const href = this.#selfHref;
    this.#selfHref = undefined;
    if (href === undefined) return;
    try {
      const res = await request(href, { method: 'DELETE', headersTimeout: this.#cfg.timeoutMs, bodyTimeout: this.#cfg.timeoutMs });
      await res.body.dump();
    } catch {
      // The RNI service is gone; its subscription went with it. Nothing to undo.
    }
  }
}
