import { builder } from './builder.js';
import './scalars.js';
import './pagination.js';
import './domain.js';
import './submission.js';
import './form.js';

export const toSchema = () => builder.toSchema({ sortSchema: true });
