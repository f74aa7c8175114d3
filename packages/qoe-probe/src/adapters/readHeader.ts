/**
 * A response header from whatever the player kept of the response: an XMLHttpRequest (hls.js
 * `networkDetails`, XHR loader), a fetch Response or Headers (hls.js fetch loader), or a plain
 * record (dash.js response interceptors). Case-insensitive; null when absent or not exposed.
 * XHRs are read through getAllResponseHeaders(): getResponseHeader() on a header the server did
 * not expose (CORS) logs a console error on every call.
 */
export function readHeader(source: unknown, name: string): string | null {
  if (!source || typeof source !== 'object') return null;
  const lower = name.toLowerCase();
  const s = source as {
    getAllResponseHeaders?: () => string;
    headers?: unknown;
    get?: (n: string) => string | null;
  };
  try {
    if (typeof s.getAllResponseHeaders === 'function') {
      for (const line of s.getAllResponseHeaders().split('\r\n')) {
        const i = line.indexOf(':');
        if (i > 0 && line.slice(0, i).trim().toLowerCase() === lower) return line.slice(i + 1).trim();
      }
      return null;
    }
    if (typeof s.get === 'function') return s.get(name);
    if (s.headers) return readHeader(s.headers, name);
    for (const [k, v] of Object.entries(source)) if (k.toLowerCase() === lower && typeof v === 'string') return v;
  } catch {
    // A detached or aborted request can throw on header access; the header is then unknown.
  }
  return null;
}
