import type { HlsUriKind } from './HlsUriKind.js';
import type { HlsAttributes, HlsIFrameStream, HlsMultivariantPlaylist, HlsRendition, HlsVariantStream } from './HlsMultivariantPlaylist.js';
import { hlsMalformed } from './hlsMalformed.js';
import { findAttribute, parseAttributeList, type HlsAttribute } from './parseAttributeList.js';
import { parseHlsInteger } from './parseHlsNumbers.js';
import { splitPlaylistLines } from './splitPlaylistLines.js';

/** A URI to route: a whole line (attr undefined) or one attribute's value in a tag line. */
export interface MultivariantUriSite {
  line: number;
  kind: HlsUriKind;
  attr?: HlsAttribute;
}

export interface MultivariantScan {
  playlist: HlsMultivariantPlaylist;
  sites: MultivariantUriSite[];
}

const MEDIA_ONLY_TAGS = new Set([
  'EXTINF',
  'EXT-X-TARGETDURATION',
  'EXT-X-MEDIA-SEQUENCE',
  'EXT-X-DISCONTINUITY-SEQUENCE',
  'EXT-X-BYTERANGE',
  'EXT-X-DISCONTINUITY',
  'EXT-X-KEY',
  'EXT-X-MAP',
  'EXT-X-PROGRAM-DATE-TIME',
  'EXT-X-ENDLIST',
  'EXT-X-PLAYLIST-TYPE',
  'EXT-X-I-FRAMES-ONLY',
  'EXT-X-PART',
  'EXT-X-PART-INF',
  'EXT-X-PRELOAD-HINT',
  'EXT-X-SERVER-CONTROL',
  'EXT-X-SKIP',
]);

function toRecord(attrs: readonly HlsAttribute[]): HlsAttributes {
  const r: Record<string, string> = {};
  for (const a of attrs) r[a.name] = a.value;
  return r;
}

/** Single pass over a multivariant playlist. Throws EthleError only. */
export function scanMultivariantPlaylist(text: string): MultivariantScan {
  const { lines, lineEnding, trailingNewline } = splitPlaylistLines(text);
  const variants: HlsVariantStream[] = [];
  const iFrameStreams: HlsIFrameStream[] = [];
  const renditions: HlsRendition[] = [];
  const sessionKeys: HlsAttributes[] = [];
  const sessionData: HlsAttributes[] = [];
  const sites: MultivariantUriSite[] = [];
  let version: number | undefined;
  let pending: { attrs: HlsAttributes; bandwidth: number | undefined; line: number } | undefined;

  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length === 0) continue;
    if (line.charCodeAt(0) !== 35 /* # */) {
      if (line.trim() === '') continue;
      if (pending === undefined) throw hlsMalformed(i, '', 'URI line without a preceding #EXT-X-STREAM-INF', { uri: line.slice(0, 200) });
      const v: HlsVariantStream = { uri: line.trim(), attributes: pending.attrs, line: pending.line, uriLine: i };
      if (pending.bandwidth !== undefined) v.bandwidth = pending.bandwidth;
      variants.push(v);
      sites.push({ line: i, kind: 'variant' });
      pending = undefined;
      continue;
    }
    if (!line.startsWith('#EXT')) continue;
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line.slice(1).trimEnd() : line.slice(1, colon);
    if (pending !== undefined && tag === 'EXT-X-STREAM-INF') throw hlsMalformed(pending.line, tag, '#EXT-X-STREAM-INF without a URI line');
    switch (tag) {
      case 'EXT-X-STREAM-INF': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const bw = findAttribute(attrs, 'BANDWIDTH');
        pending = {
          attrs: toRecord(attrs),
          bandwidth: bw === undefined ? undefined : parseHlsInteger(bw.value, i, tag, 'BANDWIDTH'),
          line: i,
        };
        break;
      }
      case 'EXT-X-I-FRAME-STREAM-INF': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const uri = findAttribute(attrs, 'URI');
        if (uri === undefined || uri.value === '') throw hlsMalformed(i, tag, 'missing attribute URI');
        const bw = findAttribute(attrs, 'BANDWIDTH');
        const s: HlsIFrameStream = { uri: uri.value, attributes: toRecord(attrs), line: i };
        if (bw !== undefined) s.bandwidth = parseHlsInteger(bw.value, i, tag, 'BANDWIDTH');
        iFrameStreams.push(s);
        sites.push({ line: i, kind: 'iframe', attr: uri });
        break;
      }
      case 'EXT-X-MEDIA': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const get = (name: string): string => {
          const a = findAttribute(attrs, name);
          if (a === undefined) throw hlsMalformed(i, tag, `missing attribute ${name}`);
          return a.value;
        };
        const r: HlsRendition = { type: get('TYPE'), groupId: get('GROUP-ID'), name: get('NAME'), attributes: toRecord(attrs), line: i };
        const uri = findAttribute(attrs, 'URI');
        if (uri !== undefined) {
          r.uri = uri.value;
          sites.push({ line: i, kind: 'media', attr: uri });
        }
        renditions.push(r);
        break;
      }
      case 'EXT-X-SESSION-KEY': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        if (findAttribute(attrs, 'METHOD') === undefined) throw hlsMalformed(i, tag, 'missing attribute METHOD');
        const uri = findAttribute(attrs, 'URI');
        if (uri !== undefined) sites.push({ line: i, kind: 'session-key', attr: uri });
        sessionKeys.push(toRecord(attrs));
        break;
      }
      case 'EXT-X-SESSION-DATA': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        if (findAttribute(attrs, 'DATA-ID') === undefined) throw hlsMalformed(i, tag, 'missing attribute DATA-ID');
        const uri = findAttribute(attrs, 'URI');
        if (uri !== undefined) sites.push({ line: i, kind: 'session-data', attr: uri });
        sessionData.push(toRecord(attrs));
        break;
      }
      case 'EXT-X-VERSION':
        version = parseHlsInteger(line.slice(colon + 1).trim(), i, tag, 'version');
        break;
      case 'EXTM3U':
        throw hlsMalformed(i, tag, 'second #EXTM3U');
      default:
        if (MEDIA_ONLY_TAGS.has(tag)) throw hlsMalformed(i, tag, 'media playlist tag in a multivariant playlist');
    }
  }
  if (pending !== undefined)
    throw hlsMalformed(pending.line, 'EXT-X-STREAM-INF', '#EXT-X-STREAM-INF without a URI line (truncated playlist?)');
  const playlist: HlsMultivariantPlaylist = {
    kind: 'multivariant',
    lines,
    lineEnding,
    trailingNewline,
    variants,
    iFrameStreams,
    renditions,
    sessionKeys,
    sessionData,
  };
  if (version !== undefined) playlist.version = version;
  return { playlist, sites };
}
