/**
 * Maps a URI found in a manifest to the URI the player should see. `kind` says what the URI
 * points at (HLS: 'segment', 'init', 'key', …; DASH uses its own names); routers may ignore it.
 * Must return a URI reference without quotes, spaces or line breaks.
 */
export type UriRouter = (uri: string, kind: string) => string;
