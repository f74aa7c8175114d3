import { EthleError } from '../errors/EthleError.js';

export interface PlaylistLines {
  lines: string[];
  lineEnding: '\n' | '\r\n';
  trailingNewline: boolean;
}

const HEADER_RE = /^\uFEFF?#EXTM3U[ \t]*$/;

/** Splits playlist text into lines (keeping each line's text as is) and checks the #EXTM3U header. */
export function splitPlaylistLines(text: unknown): PlaylistLines {
  if (typeof text !== 'string') throw new EthleError('ERR_HLS_NOT_A_PLAYLIST', 'playlist is not text', { type: typeof text });
  const crlf = text.includes('\r');
  const lines = text.split('\n');
  if (crlf)
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i] as string;
      if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
    }
  const trailingNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (trailingNewline) lines.pop();
  if (!HEADER_RE.test(lines[0] ?? '')) {
    throw new EthleError('ERR_HLS_NOT_A_PLAYLIST', 'first line is not #EXTM3U', { firstLine: (lines[0] ?? '').slice(0, 80) });
  }
  return { lines, lineEnding: text.includes('\r\n') ? '\r\n' : '\n', trailingNewline };
}
