import { importStage } from './import.js';
import type { Stage } from './stage.js';

/** Every stage `npm run bench` runs after the main scenarios, in this order (`--stages a,b` picks some). */
export const STAGES: Stage[] = [importStage];
