import { connect, type Socket } from 'node:net';

export interface SlowResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The whole Content-Length arrived (false: the connection ended or was cut before). */
  complete: boolean;
}

/**
 * One HTTP/1.1 keep-alive connection that reads its responses at a bounded rate (the socket is
 * paused and read `bytesPerTick` every `tickMs`): a receiver on a slow radio, a player whose
 * buffer is full. Requests go one after the other on the same connection. `localAddress` picks
 * the client's address (127.0.0.2, …: another client to the edge).
 */
export async function openSlowClient(url: string, o: { localAddress?: string } = {}) {
  const u = new URL(url);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(
      { port: Number(u.port), host: u.hostname, ...(o.localAddress === undefined ? {} : { localAddress: o.localAddress }) },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.pause();
  let closed = false;
  socket.once('close', () => (closed = true));
  let pending = Buffer.alloc(0);
  /** Bytes read from the connection so far (headers included). */
  let received = 0;

  /**
   * GET `path`; its body read at most `bytesPerTick` per `tickMs`. A tick takes what the socket has
   * buffered (about 64 KiB at most), so the rate is bounded by the tick as well: the default, a
   * tick a millisecond with no budget, reads as fast as it comes (a 5 ms tick took ~1 s for 12 MB).
   */
  const get = (
    path: string,
    rate: { bytesPerTick: number; tickMs: number } = { bytesPerTick: Infinity, tickMs: 1 },
  ): Promise<SlowResponse> =>
    new Promise((resolve) => {
      socket.write(`GET ${path} HTTP/1.1\r\nhost: ${u.host}\r\n\r\n`);
      let head: { status: number; headers: Record<string, string>; length: number } | undefined;
      const body: Buffer[] = [];
      let got = 0;
      let finished = false;
      const done = (complete: boolean): void => {
        if (finished) return;
        finished = true;
        clearInterval(timer);
        socket.off('close', onClose);
        const all = Buffer.concat(body);
        // Bytes past this response belong to the next one on the connection.
        if (head !== undefined && all.length > head.length) pending = all.subarray(head.length);
        resolve({
          status: head?.status ?? 0,
          headers: head?.headers ?? {},
          body: head === undefined ? all : all.subarray(0, head.length),
          complete,
        });
      };
      const onClose = (): void => {
        tick(Infinity);
        done(false);
      };
      const tick = (budget: number): void => {
        let n = 0;
        let c: Buffer | null;
        if (pending.length > 0) {
          body.push(pending);
          n += pending.length;
          pending = Buffer.alloc(0);
        }
        while (n < budget && (c = socket.read() as Buffer | null) !== null) {
          body.push(c);
          n += c.length;
          received += c.length;
        }
        if (head === undefined) {
          const all = Buffer.concat(body);
          const end = all.indexOf('\r\n\r\n');
          if (end < 0) return;
          const lines = all.subarray(0, end).toString('latin1').split('\r\n');
          const headers: Record<string, string> = {};
          for (const l of lines.slice(1)) {
            const i = l.indexOf(':');
            headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
          }
          head = { status: Number(lines[0]!.split(' ')[1]), headers, length: Number(headers['content-length'] ?? 0) };
          body.length = 0;
          body.push(all.subarray(end + 4));
        }
        got = body.reduce((a, b) => a + b.length, 0);
        if (got >= head.length) done(true);
      };
      const timer = setInterval(() => tick(rate.bytesPerTick), rate.tickMs);
      socket.once('close', onClose);
      if (closed) onClose();
    });

  return {
    socket,
    get,
    /** Bytes read from the connection so far: a response has started once this grows. */
    received: (): number => received,
    /** Resolves when the edge closed the connection. */
    closed: (): Promise<void> => new Promise((r) => (closed ? r() : socket.once('close', () => r()))),
    destroy: (): void => void socket.destroy(),
  };
}
