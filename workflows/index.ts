/** The one bundle entry the Worker points at (`workflowsPath`). */
export { productionCycle, generateQueries, rollout, judgeTrajectory, exportDataset } from './production-cycle.js';
export { errorRecovery } from './error-recovery.js';
export { productionLine } from './line.js';
export { retrain } from './retrain.js';
export { evaluatePolicy } from './evaluate.js';
export { synthesizeGuidance } from './guidance.js';
export { synthesizeReasoningData } from './reasoning.js';
