import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One response as a bench receiver sees it: times in performance.now() ms. */
export interface RawResponse {
  status: number;
  /** When the whole header block had arrived. */
  headersAt: number;
  /** When the last body byte had arrived. */
  doneAt: number;
  /** Body bytes received (always the Content-Length: a short body is an error). */
  bytes: number;
  /** The body as text, if asked for (playlists); segments are only counted. */
  text: string | undefined;
}

/**
 * Every connection reads into this one buffer (net's `onread`): the callback consumes each read
 * before the next, so a thousand receivers allocate nothing per read. Bodies are counted, not kept.
 */
const READ_BUFFER = Buffer.alloc(256 * 1024);
const HEAD_END = Buffer.from('\r\n\r\n');
/** A header block larger than this is not an edge's answer. */
const MAX_HEAD_BYTES = 16 * 1024;

interface Pending {
  keepText: boolean;
  resolve: (r: RawResponse) => void;
  reject: (e: Error) => void;
}

/**
 * A minimal HTTP/1.1 keep-alive client for the fan-out bench's receivers: one GET at a time on
 * one TCP connection, responses with Content-Length only (what the edge sends for playlists and
 * cached segments; chunked or close-delimited answers are errors). undici's per-chunk streams and
 * buffers cost the receiving core more than the edge spends serving (the bench measured its own
 * limit); this reads every socket into one shared buffer and only counts body bytes.
 */
export class RawHttpConnection {
  readonly #host: string;
  readonly #port: number;
  #socket: Socket | undefined;
  #connected: Promise<void> | undefined;
  #pending: Pending | undefined;
  #head: Buffer[] = [];
  #headBytes = 0;
  #status = 0;
  #remaining = -1;
  #bytes = 0;
  #headersAt = 0;
  #text: string[] | undefined;

  constructor(url: string) {
    const u = new URL(url);
    if (u.protocol !== 'http:') throw new Error(`RawHttpConnection: plain http only (${url})`);
    this.#host = u.hostname;
    this.#port = Number(u.port || 80);
  }

  /** GET `path`; rejects on a closed connection, a malformed or unsupported response. */
  async get(path: string, headers: Record<string, string> = {}, keepText = false): Promise<RawResponse> {
    if (this.#pending !== undefined) throw new Error('RawHttpConnection: one request at a time');
    await this.#connect();
    let head = `GET ${path} HTTP/1.1\r\nhost: ${this.#host}:${this.#port}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    return new Promise<RawResponse>((resolve, reject) => {
      this.#pending = { keepText, resolve, reject };
      this.#head = [];
      this.#headBytes = 0;
      this.#remaining = -1;
      this.#bytes = 0;
      this.#text = keepText ? [] : undefined;
      this.#socket!.write(`${head}\r\n`);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
    this.#connected = undefined;
  }

  #connect(): Promise<void> {
    if (this.#connected !== undefined) return this.#connected;
    this.#connected = new Promise<void>((resolve, reject) => {
      const s = connect({
        host: this.#host,
        port: this.#port,
        onread: { buffer: READ_BUFFER, callback: (n: number, buf: Uint8Array) => this.#onData(buf as Buffer, n) },
      });
      this.#socket = s;
      s.once('connect', () => resolve());
      s.once('error', (e) => {
        reject(e);
        if (this.#socket === s) this.#fail(e);
      });
      // A connection closed between requests (the edge's keep-alive timeout) is just gone.
      s.once('close', () => {
        if (this.#socket === s) this.#fail(new Error('other side closed'));
      });
    });
    return this.#connected;
  }

  #fail(e: Error): void {
    this.#socket?.destroy();
    this.#socket = undefined;
    this.#connected = undefined;
    const p = this.#pending;
    this.#pending = undefined;
    p?.reject(e);
  }

  #onData(buf: Buffer, n: number): boolean {
    if (this.#pending === undefined) {
      this.#fail(new Error(`${n} bytes while no request was open`));
      return false;
    }
    if (this.#remaining < 0) {
      // Still in the header block: copy only its bytes out of the shared buffer.
      const chunk = Buffer.from(buf.subarray(0, n));
      this.#head.push(chunk);
      this.#headBytes += n;
      const all = this.#head.length === 1 ? chunk : Buffer.concat(this.#head);
      const end = all.indexOf(HEAD_END);
      if (end < 0) {
        if (this.#headBytes > MAX_HEAD_BYTES) this.#fail(new Error('header block too large'));
        return true;
      }
      this.#headersAt = performance.now();
      const text = all.toString('latin1', 0, end);
      this.#status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? Number.NaN);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      if (Number.isNaN(this.#status) || length === null || /\r\ntransfer-encoding:/i.test(text)) {
        this.#fail(new Error(`unsupported response: ${text.split('\r\n')[0]} (Content-Length only)`));
        return false;
      }
      this.#remaining = Number(length[1]);
      // Body bytes that came with the header block.
      const rest = all.subarray(end + 4);
      this.#head = [];
      this.#take(rest, 0, rest.length);
    } else this.#take(buf, 0, n);
    return true;
  }

  #take(buf: Buffer, from: number, to: number): void {
    const n = to - from;
    if (n > this.#remaining) {
      this.#fail(new Error(`${n - this.#remaining} bytes past the response's Content-Length`));
      return;
    }
    this.#remaining -= n;
    this.#bytes += n;
    if (this.#text !== undefined && n > 0) this.#text.push(buf.toString('latin1', from, to));
    if (this.#remaining > 0) return;
    const p = this.#pending!;
    this.#pending = undefined;
    this.#remaining = -1;
    p.resolve({
      status: this.#status,
      headersAt: this.#headersAt,
      doneAt: performance.now(),
      bytes: this.#bytes,
      text: this.#text?.join(''),
    });
  }
}
