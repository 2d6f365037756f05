import { coldStartStage } from './cold-start.js';
import { dashboardStage } from './dashboard.js';
import { deepListStage } from './deep-list.js';
import { embeddedMemoryStage } from './embedded-memory.js';
import { exportStage } from './export.js';
import { importStage } from './import.js';
import { mcpStage } from './mcp.js';
import { metricsCostStage } from './metrics-cost.js';
import { revalidation } from './revalidation.js';
import type { Stage } from './stage.js';
import { streamsStage } from './streams.js';
import { webhooksStage } from './webhooks.js';
import { overloadStage } from './overload.js';

/** Every stage `npm run bench` runs after the main scenarios, in this order (`--stages a,b` picks some). */
export const STAGES: Stage[] = [dashboardStage, revalidation, mcpStage, metricsCostStage, exportStage, deepListStage, webhooksStage, streamsStage, overloadStage, importStage, coldStartStage, embeddedMemoryStage];
