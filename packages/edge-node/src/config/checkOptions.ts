import type { EdgeConfigInput } from './EdgeConfig.js';
import type { EdgeOption } from './EdgeOption.js';
import { checkOption, failOption } from './checkOption.js';
import { readOptionPath, writeOptionPath } from './optionPath.js';

/**
 * The table's part of validation: no key the table does not know, and every option with a rule
 * of its own checked and defaulted, at its (dotted) key of the result. An object option's fields
 * are filled even when the object is absent; createEdgeConfig decides whether it exists.
 */
export function checkOptions(input: EdgeConfigInput, options: readonly EdgeOption[]): Record<string, unknown> {
  const known = [...new Set(options.flatMap((o) => (o.key === undefined ? [] : [o.key.split('.')[0]!])))];
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) failOption(key, `unknown option (known: ${known.join(', ')})`);
  }
  const values: Record<string, unknown> = {};
  for (const o of options) {
    if (o.key === undefined || o.rule.type === 'custom') continue;
    writeOptionPath(values, o.key, checkOption(o.key, o.rule, readOptionPath(input, o.key)));
  }
  return values;
}
