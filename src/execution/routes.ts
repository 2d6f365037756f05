import type { TableRoute } from './route.js';
import { calendarRoutes } from './routes/calendars.routes.js';
import { erasureRoutes } from './routes/erasure.routes.js';
import { exportRoutes } from './routes/export.routes.js';
import { formRoutes } from './routes/forms.routes.js';
import { shopRoutes } from './routes/shop.routes.js';
import { siteCatalogRoutes } from './routes/site-catalog.routes.js';
import { siteVerificationRoutes } from './routes/site-verification.routes.js';
import { submissionRoutes } from './routes/submissions.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries.routes.js';
import { eventRoutes } from './routes/events.routes.js';
import { apiKeyRoutes } from './routes/api-keys.routes.js';
import { rateLimitRoutes } from './routes/rate-limit.routes.js';

/** THE v1 table: every path the service answers under /v1 (each area keeps its rows in src/execution/routes/). */
export const routes: TableRoute[] = [...formRoutes, ...submissionRoutes, ...siteVerificationRoutes, ...calendarRoutes, ...shopRoutes, ...siteCatalogRoutes, ...webhookRoutes, ...webhookDeliveryRoutes, ...eventRoutes, ...erasureRoutes, ...exportRoutes, ...apiKeyRoutes, ...rateLimitRoutes];
