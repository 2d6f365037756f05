// Prisma's CLI downloads a native schema engine before any command, even `generate`; that host is unreachable
// here and in CI. Pointing it at an existing file stops the download. Migrations run through src/infra/migrations.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
