import { compileSources } from './compile-sources.mjs';

/**
 * Part of postinstall: what `npm start` would otherwise do at its first start. Compiles the sources into .build/
 * (see compile-sources.mjs) and makes the empty embedded database that a new data directory is copied from
 * (src/infra/db-template.ts). A production install (--omit=dev: PostgreSQL, `npm run start:prod`) skips the latter.
 */
await compileSources();
if (!(process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev')) {
  const { createPgliteTemplate } = await import('../.build/infra/db-template.js');
  await createPgliteTemplate();
}
