import { afterEach } from 'vitest';

interface Closable {
  close(): Promise<unknown>;
}

/**
 * Registers an afterEach that closes what each test handed to the returned function, newest first
 * (an edge before its origin), so a failing test leaves no server behind for the next one.
 */
export function closeAfterEach(): <T extends Closable>(c: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const c of open.splice(0).reverse()) await c.close();
  });
  return (c) => {
    open.push(c);
    return c;
  };
}
