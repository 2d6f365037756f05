import { builder } from './builder.js';
import './scalars.js';
import './pagination.js';
import './domain.js';
import './submission.js';
import './form.js';
import './site-verification.js';
import './calendar.js';
import './shop.js';
import './site-catalog.js';
import './webhook.js';
import './erasure.js';
import './webhook-delivery.js';
import './event.js';
import './api-key.js';
import './rate-limit.js';

export const toSchema = () => builder.toSchema({ sortSchema: true });
