import { timerMs } from '@ethle/core';
import { EdgeError } from '../errors/EdgeError.js';
import type { NumberRule, OptionRule } from './EdgeOption.js';

export function failOption(option: string, message: string, value?: unknown): never {
  throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `${option}: ${message}`, { option, value });
}

/**
 * A number option: the default when unset, else a finite number within the rule's bounds (an
 * integer for `integer`, rounded to what a timer takes for `ms`: AbortSignal.timeout throws on a
 * fraction). `def` and `max` replace the rule's where they depend on other options.
 */
export function checkNumber(option: string, rule: NumberRule, v: unknown, def = rule.default, max = rule.max): number | undefined {
  if (v === undefined) return def === undefined || rule.type !== 'ms' ? def : timerMs(def);
  if (typeof v !== 'number' || !Number.isFinite(v)) failOption(option, `expected a number, got ${JSON.stringify(v)}`, v);
  if (rule.type === 'integer' && !Number.isInteger(v)) failOption(option, `expected an integer, got ${v}`, v);
  if (v < rule.min || v > max) failOption(option, `must be between ${rule.min} and ${max}, got ${v}`, v);
  return rule.type === 'ms' ? timerMs(v) : v;
}

/**
 * One option's value checked by its rule, with its default when unset; throws
 * ERR_EDGE_CONFIG_INVALID naming the option. Custom rules pass the value through: createEdgeConfig
 * checks those with the options they depend on.
 */
export function checkOption(option: string, rule: OptionRule, v: unknown): unknown {
  switch (rule.type) {
    case 'number':
    case 'integer':
    case 'ms':
      return checkNumber(option, rule, v);
    case 'enum': {
      const value = v ?? rule.default;
      if (typeof value !== 'string' || !rule.values.includes(value))
        failOption(option, rule.message?.(value) ?? `one of ${rule.values.join(', ')}`, value);
      return value;
    }
    case 'text': {
      const value = v ?? rule.default;
      if (typeof value !== 'string' || value.length === 0) failOption(option, rule.message, value);
      return value;
    }
    case 'custom':
      return v;
  }
}
