/**
 * A multivariant playlist with HLS Content Steering: `#EXT-X-CONTENT-STEERING` after `#EXTM3U`
 * (SERVER-URI, the initial PATHWAY-ID) and every `#EXT-X-STREAM-INF` tagged with that pathway, so
 * the steering manifest's clones of it (other edges, the origin) apply. An existing steering tag
 * or PATHWAY-ID is replaced: the edge serving the playlist is the pathway's base.
 */
export function addHlsSteering(text: string, o: { serverUri: string; pathwayId: string }): string {
  const quoted = (v: string) => `"${v.replace(/"/g, '%22')}"`;
  const lines = text.split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (line.startsWith('#EXT-X-CONTENT-STEERING')) continue;
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const attrs = line
        .slice('#EXT-X-STREAM-INF:'.length)
        .replace(/(^|,)PATHWAY-ID="[^"]*"/, '')
        .replace(/^,/, '');
      out.push(`#EXT-X-STREAM-INF:${attrs}${attrs === '' ? '' : ','}PATHWAY-ID=${quoted(o.pathwayId)}`);
      continue;
    }
    out.push(line);
    if (out.length === 1 && line.replace(/^\uFEFF/, '').trimEnd() === '#EXTM3U')
      out.push(`#EXT-X-CONTENT-STEERING:SERVER-URI=${quoted(o.serverUri)},PATHWAY-ID=${quoted(o.pathwayId)}`);
  }
  return out.join('\n');
}
