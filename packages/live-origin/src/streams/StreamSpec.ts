/** A live stream the origin serves, named `{bitrate}M-{seconds}s` (e.g. `15M-2s`). */
export interface StreamSpec {
  name: string;
  bitrateMbps: number;
  segmentSeconds: 2 | 4 | 10;
  /** Every media segment is padded to this size (paper Table I), bytes. */
  segmentBytes: number;
}

/**
 * The ETHLE paper's Table I (MB = 10^6 bytes): the 4K CBR segment sizes its experiments carried.
 * They are a little under bitrate × length / 8, as real CBR encoders produce; we serve them as printed.
 */
export const TABLE_I_BYTES: Readonly<Record<string, number>> = {
  '15M-2s': 3.7e6,
  '15M-4s': 7.2e6,
  '15M-10s': 18.3e6,
  '50M-2s': 12.2e6,
  '50M-4s': 24.4e6,
  '50M-10s': 61.1e6,
};

export const DEFAULT_STREAMS = ['2M-2s', '15M-2s', '15M-4s', '15M-10s', '50M-2s', '50M-4s', '50M-10s'] as const;

const NAME_RE = /^(\d{1,3})M-(2|4|10)s$/;

/** Parses a stream name; undefined if it is not of the form `{1..200}M-{2|4|10}s`. */
export function parseStreamName(name: string): StreamSpec | undefined {
  const m = NAME_RE.exec(name);
  if (!m) return undefined;
  const bitrateMbps = Number(m[1]);
  if (bitrateMbps < 1 || bitrateMbps > 200) return undefined;
  const segmentSeconds = Number(m[2]) as 2 | 4 | 10;
  return { name, bitrateMbps, segmentSeconds, segmentBytes: TABLE_I_BYTES[name] ?? (bitrateMbps * 1e6 * segmentSeconds) / 8 };
}
