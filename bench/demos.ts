/**
 * The scripted demonstrations live in the demonstration library (environments/demonstrations/scripted.ts), which the
 * cycle's guidance stage uses as a reference source; the benchmarks keep importing them from here.
 */
export * from '../environments/demonstrations/scripted.js';
