export * from './action.js';
export * from './dag.js';
export * from './entities.js';
export * from './errors.js';
export * from './normalize.js';
export * from './openai.js';
export type * from './ports.js';
export { EnvError } from './ports.js';
