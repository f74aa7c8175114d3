/**
 * What a routed playlist URI points at. Media playlists: 'segment' (URI lines), 'init'
 * (EXT-X-MAP), 'key' (EXT-X-KEY), 'part' (EXT-X-PART), 'preload-hint' (EXT-X-PRELOAD-HINT),
 * 'rendition-report' (EXT-X-RENDITION-REPORT, another media playlist). Multivariant: 'variant'
 * (EXT-X-STREAM-INF), 'iframe' (EXT-X-I-FRAME-STREAM-INF), 'media' (EXT-X-MEDIA),
 * 'session-key' (EXT-X-SESSION-KEY), 'session-data' (EXT-X-SESSION-DATA).
 */
export type HlsUriKind =
  | 'segment'
  | 'init'
  | 'key'
  | 'part'
  | 'preload-hint'
  | 'rendition-report'
  | 'variant'
  | 'iframe'
  | 'media'
  | 'session-key'
  | 'session-data';

/** Caller-provided routing of playlist URIs (see createEdgeRouter in url/). */
export type HlsRouter = (uri: string, kind: HlsUriKind) => string;
