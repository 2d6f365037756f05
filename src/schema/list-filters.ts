import type { ArgBuilder, EnumRef } from '@pothos/core';
import type { BuilderTypes } from './pagination.js';

/** The filters of bookings and orders: one status and a createdAt window [createdFrom, createdBefore). */
export const statusFilterArgs = <Status extends string>(arg: ArgBuilder<BuilderTypes>, status: EnumRef<BuilderTypes, Status>) => ({
  status: arg({ type: status }),
  createdFrom: arg({ type: 'DateTime', description: 'inclusive' }),
  createdBefore: arg({ type: 'DateTime', description: 'exclusive' }),
});

/** Those filters as the services take them. */
export const statusFilter = <Status>(args: { status?: Status | null; createdFrom?: Date | null; createdBefore?: Date | null }) => ({
  status: args.status,
  createdFrom: args.createdFrom,
  createdBefore: args.createdBefore,
});
