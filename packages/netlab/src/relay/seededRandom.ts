/**
 * A small seeded PRNG (mulberry32): uniform in [0, 1), the same sequence for the same seed. Lets
 * two runs that should see the same radio (E2E and auto in one repeat) get the same delay process.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a string (FNV-1a), e.g. a scenario cell and repeat. */
export function seedFrom(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A uniform number in [0, 1) from a seed and an index, without state: the n-th draw of a stream
 * that any caller can ask for in any order (e.g. whether TTI n's transport block fails), so it
 * does not depend on which TTIs our traffic happened to use.
 */
export function hashUnit(seed: number, n: number): number {
  let h = (seed ^ Math.imul(n >>> 0, 0x9e3779b1) ^ Math.floor(n / 4294967296)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
