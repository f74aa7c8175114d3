import { failOption } from './checkOption.js';

/** An origin's base URL: http(s), no query, fragment or credentials, without a trailing slash. */
export function originUrl(option: string, url: unknown): string {
  if (typeof url !== 'string') failOption(option, 'expected an http(s) URL string', url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    failOption(option, `not a URL: ${JSON.stringify(url)} (write it like http://origin.example:8081)`, url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') failOption(option, `only http and https origins, got ${u.protocol}`, url);
  if (u.search || u.hash) failOption(option, 'an origin URL has no query or fragment', url);
  if (u.username || u.password) failOption(option, 'credentials in the origin URL are not supported', url);
  // Keep a base path without trailing slash so `${url}${path}` joins cleanly.
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}
