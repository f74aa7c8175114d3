/**
 * Sets `name=value` in a URI reference's query, replacing an earlier value of the same name
 * (a URL routed twice — service worker over edge — must not carry the token twice). The value is
 * percent-encoded; the fragment, if any, stays last.
 */
export function setQueryParam(uri: string, name: string, value: string): string {
  const hash = uri.indexOf('#');
  const beforeHash = hash < 0 ? uri : uri.slice(0, hash);
  const fragment = hash < 0 ? '' : uri.slice(hash);
  const q = beforeHash.indexOf('?');
  const pair = encodeURIComponent(name) + '=' + encodeURIComponent(value);
  if (q < 0) return beforeHash + '?' + pair + fragment;
  const prefix = encodeURIComponent(name) + '=';
  const kept = beforeHash
    .slice(q + 1)
    .split('&')
    .filter((p) => p !== '' && !p.startsWith(prefix) && p !== encodeURIComponent(name));
  kept.push(pair);
  return beforeHash.slice(0, q) + '?' + kept.join('&') + fragment;
}
