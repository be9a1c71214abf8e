/**
 * mulberry32: a small, fast, seedable PRNG, uniform on [0, 1). Everything that must be reproducible from a
 * seed (query generation, app state resets, the reference models' sampling) draws from it.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
