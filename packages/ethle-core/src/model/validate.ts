import { HOLD_LIMITS } from './HOLD_LIMITS.js';
import { EthleError } from '../errors/EthleError.js';

/**
 * Throws ERR_MODEL_INVALID_INPUT unless `value` is a finite number within [min, max].
 * Bounds are generous sanity limits: they catch unit mistakes (ms given as s, bytes as MB)
 * and garbage, not unusual-but-real networks.
 */
export function requireRange(field: string, value: unknown, min: number, max: number, exclusiveMin = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value > max || (exclusiveMin ? value <= min : value < min)) {
    throw new EthleError(
      'ERR_MODEL_INVALID_INPUT',
      `${field} must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}], got ${String(value)}`,
      { field, value },
    );
  }
  return value;
}

/** Sanity limits shared by the model's entry points. */
export const LIMITS = {
  maxRttSeconds: 60,
  maxBytes: 1e12,
  maxSegmentSeconds: 3600,
  maxBps: 1e13,
  maxMssBytes: 65_535,
  maxInitialWindow: 1_000,
  maxHold: HOLD_LIMITS.max,
} as const;

/** Like requireRange, and the value must be an integer. */
export function requireInteger(field: string, value: unknown, min: number, max: number): number {
  const v = requireRange(field, value, min, max);
  if (!Number.isInteger(v)) {
    throw new EthleError('ERR_MODEL_INVALID_INPUT', `${field} must be an integer, got ${v}`, { field, value });
  }
  return v;
}
