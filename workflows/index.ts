/** The one bundle entry the Worker points at (`workflowsPath`). */
export { productionCycle, generateQueries, rollout, judgeTrajectory, exportDataset } from './production-cycle.js';
export { synthesizeGuidance } from './guidance.js';
