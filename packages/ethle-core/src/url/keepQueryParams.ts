/**
 * `?` + the `&`-separated parts of a raw query whose (decoded) name `keep` accepts, unchanged
 * and in order; '' when none is kept. Raw, not re-encoded: a signed URL breaks on re-encoding.
 */
export function keepQueryParams(rawQuery: string, keep: (name: string) => boolean): string {
  let out = '';
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      name = rawName;
    }
    if (keep(name)) out += out === '' ? `?${part}` : `&${part}`;
  }
  return out;
}
