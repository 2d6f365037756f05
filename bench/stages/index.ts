import { coldStartStage } from './cold-start.js';
import { embeddedMemoryStage } from './embedded-memory.js';
import type { Stage } from './stage.js';

/** Every stage `npm run bench` runs after the main scenarios, in this order (`--stages a,b` picks some). */
export const STAGES: Stage[] = [coldStartStage, embeddedMemoryStage];
