import { ErrorCodes } from './ProbeError.js';
import type { ErrorData, EventName, QoeEventMap, QoeListener } from './Events.js';

export interface Emitter {
  on<E extends EventName>(event: E, listener: QoeListener<E>): void;
  off<E extends EventName>(event: E, listener: QoeListener<E>): void;
  emit<E extends EventName>(event: E, data: QoeEventMap[E]): void;
  clear(): void;
}

/**
 * Typed events whose listeners cannot hurt the probe: a listener that throws is reported as an
 * `error` event (code QOE_ERR_LISTENER_THREW) and the other listeners still run. A throwing
 * `error` listener is not re-reported, which would loop.
 */
export function createEmitter(now: () => number, onListenerError?: (e: ErrorData) => void): Emitter {
  const map = new Map<string, Set<(d: never) => void>>();
  const emit = <E extends EventName>(event: E, data: QoeEventMap[E]): void => {
    const set = map.get(event);
    if (!set) return;
    for (const fn of [...set]) {
      try {
        (fn as QoeListener<E>)(data);
      } catch (err) {
        if (event === 'error') continue;
        const e: ErrorData = {
          at: now(),
          code: ErrorCodes.LISTENER_THREW,
          source: 'listener',
          detail: event,
          message: err instanceof Error ? err.message : String(err),
          fatal: false,
        };
        onListenerError?.(e);
        emit('error', e);
      }
    }
  };
  return {
    on(event, listener) {
      let set = map.get(event);
      if (!set) map.set(event, (set = new Set()));
      set.add(listener as (d: never) => void);
    },
    off(event, listener) {
      map.get(event)?.delete(listener as (d: never) => void);
    },
    emit,
    clear: () => map.clear(),
  };
}
