import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import type { EdgeOption, FlagValues } from '../config/EdgeOption.js';
import { flagNumber } from '../config/flagNumber.js';
import { readOptionPath, writeOptionPath } from '../config/optionPath.js';
import { EdgeError } from '../errors/EdgeError.js';

export type ServeArgs = { help: true } | { help: false; input: EdgeConfigInput; workers: string | undefined };

function readConfigFile(file: string): EdgeConfigInput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new EdgeError('ERR_EDGE_CONFIG_FILE', `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as EdgeConfigInput;
  } catch (e) {
    throw new EdgeError('ERR_EDGE_CONFIG_FILE', `${file} is not JSON: ${(e as Error).message}`);
  }
}

/**
 * `ethle-edge serve`'s arguments as a config input: the config file if given, then each flag of
 * the option table over it (a number rule's flag as a number, else as given, or its own `apply`).
 * Throws node:util's parse errors and EdgeError (ERR_EDGE_CONFIG_*) naming the flag; the config
 * itself is checked later, by createEdgeConfig.
 */
export function parseServeArgs(argv: string[], options: readonly EdgeOption[]): ServeArgs {
  const flags: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const { cli } of options) if (cli !== undefined) flags[cli.flag] = { type: 'string' };
  const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: flags });
  if ((values as { help?: boolean }).help === true) return { help: true };
  const raw = values as FlagValues;
  const input: EdgeConfigInput = raw['config'] === undefined ? {} : readConfigFile(raw['config']);
  for (const o of options) {
    if (o.key === undefined || o.cli === undefined) continue;
    const { key, rule, cli } = o;
    const given = raw[cli.flag];
    if (given === undefined) {
      if (cli.cliDefault !== undefined && readOptionPath(input, key) === undefined)
        writeOptionPath(input as Record<string, unknown>, key, cli.cliDefault);
    } else if (cli.apply !== undefined) cli.apply(given, input, raw);
    else {
      const isNumber = rule.type === 'number' || rule.type === 'integer' || rule.type === 'ms';
      writeOptionPath(input as Record<string, unknown>, key, isNumber ? flagNumber(cli.flag, given) : given);
    }
  }
  return { help: false, input, workers: raw['workers'] };
}
