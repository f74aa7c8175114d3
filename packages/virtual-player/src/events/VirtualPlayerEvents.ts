import type { PlayoutStall } from '../playout/createPlayout.js';
import type { ErrorEntry, LatencySample, SegmentTiming } from '../report/VirtualReport.js';

/** Every event a virtual player publishes (the probe's names, hls.js-style map to payloads). */
export interface VirtualPlayerEventMap {
  startup: { at: number; startupMs: number };
  stallStart: { start: number; position: number };
  stallEnd: PlayoutStall;
  segment: SegmentTiming;
  latency: LatencySample;
  error: ErrorEntry;
}

export type VirtualPlayerEvent = keyof VirtualPlayerEventMap;
export type VirtualPlayerListener<E extends VirtualPlayerEvent> = (data: VirtualPlayerEventMap[E]) => void;

export interface Emitter {
  on<E extends VirtualPlayerEvent>(event: E, listener: VirtualPlayerListener<E>): () => void;
  emit<E extends VirtualPlayerEvent>(event: E, data: VirtualPlayerEventMap[E]): void;
  clear(): void;
}

/** A listener that throws becomes an `error` event (as hls.js does), never a crashed player. */
export function createEmitter(now: () => number): Emitter {
  const listeners = new Map<VirtualPlayerEvent, Set<(d: unknown) => void>>();
  const emitter: Emitter = {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (d: unknown) => void);
      return () => set.delete(listener as (d: unknown) => void);
    },
    emit(event, data) {
      for (const l of listeners.get(event) ?? []) {
        try {
          l(data);
        } catch (e) {
          if (event === 'error') continue;
          emitter.emit('error', {
            at: now(),
            code: 'ERR_VPLAYER_LISTENER',
            source: 'listener',
            detail: event,
            message: (e as Error).message,
            fatal: false,
          });
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
  return emitter;
}
