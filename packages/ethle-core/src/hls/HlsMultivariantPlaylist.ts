/** Attribute values with quotes removed, by attribute name. */
export type HlsAttributes = Readonly<Record<string, string>>;

/** EXT-X-STREAM-INF + its URI line. */
export interface HlsVariantStream {
  uri: string;
  bandwidth?: number;
  attributes: HlsAttributes;
  line: number;
  uriLine: number;
}

/** EXT-X-I-FRAME-STREAM-INF. */
export interface HlsIFrameStream {
  uri: string;
  bandwidth?: number;
  attributes: HlsAttributes;
  line: number;
}

/** EXT-X-MEDIA. */
export interface HlsRendition {
  type: string;
  groupId: string;
  name: string;
  uri?: string;
  attributes: HlsAttributes;
  line: number;
}

export interface HlsMultivariantPlaylist {
  kind: 'multivariant';
  lines: readonly string[];
  lineEnding: '\n' | '\r\n';
  trailingNewline: boolean;
  version?: number;
  variants: readonly HlsVariantStream[];
  iFrameStreams: readonly HlsIFrameStream[];
  renditions: readonly HlsRendition[];
  /** EXT-X-SESSION-KEY attribute lists. */
  sessionKeys: readonly HlsAttributes[];
  /** EXT-X-SESSION-DATA attribute lists. */
  sessionData: readonly HlsAttributes[];
}
