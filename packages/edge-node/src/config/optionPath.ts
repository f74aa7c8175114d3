/** The value at a dotted option key (`cache.maxBytes`); undefined where an object on the way is missing. */
export function readOptionPath(input: object, key: string): unknown {
  let at: unknown = input;
  for (const part of key.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * Set the value at a dotted option key, copying the objects on the way rather than changing them
 * (they may be a config file's, or shared with the caller).
 */
export function writeOptionPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = target[head];
  const copy = typeof inner === 'object' && inner !== null ? { ...(inner as Record<string, unknown>) } : {};
  writeOptionPath(copy, rest.join('.'), value);
  target[head] = copy;
}
