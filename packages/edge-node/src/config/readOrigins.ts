import type { EdgeConfigInput, OriginConfig } from './EdgeConfig.js';
import { failOption } from './checkOption.js';
import { originUrl } from './originUrl.js';

const ORIGIN_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/i;

/** The origins to serve: one `origin` (served at the root) or a list of named ones (under /{name}/). */
export function readOrigins(input: EdgeConfigInput): OriginConfig[] {
  let origins: OriginConfig[];
  if (input.origin !== undefined && input.origins !== undefined) failOption('origin', 'give either origin or origins, not both');
  if (input.origin !== undefined) {
    const url = originUrl('origin', input.origin);
    origins = [
      { name: 'origin', url, publicUrl: input.originPublicUrl === undefined ? url : originUrl('originPublicUrl', input.originPublicUrl) },
    ];
  } else if (Array.isArray(input.origins) && input.origins.length > 0) {
    const seen = new Set<string>();
    origins = input.origins.map((o, i) => {
      const name = o?.name;
      if (typeof name !== 'string' || !ORIGIN_NAME.test(name)) {
        failOption(`origins[${i}].name`, 'a short name of letters, digits, - and _ (it becomes the path prefix)', name);
      }
      if (seen.has(name) || name === 'healthz' || name === 'metrics')
        failOption(`origins[${i}].name`, `duplicate or reserved name ${name}`, name);
      seen.add(name);
      const url = originUrl(`origins[${i}].url`, o.url);
      return { name, url, publicUrl: o.publicUrl === undefined ? url : originUrl(`origins[${i}].publicUrl`, o.publicUrl) };
    });
  } else {
    failOption('origin', 'required: --origin http://ORIGIN or an origins list in the config file');
  }
  if (input.originPublicUrl !== undefined && input.origin === undefined)
    failOption('originPublicUrl', 'goes with origin; with an origins list give each its publicUrl');
  return origins;
}
