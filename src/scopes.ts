/** The v1 scopes. New keys default to the read-only ones (contract, Authentication rule 4). */
export const SCOPES = [
  'read:forms',
  'write:forms',
  'read:submissions',
  'write:submissions',
  'read:calendars',
  'read:bookings',
  'read:ecommerce',
  'read:orders',
  // Decisions §7.4: create, roll and revoke the account's keys through the API.
  'manage:api_keys',
] as const;

export type Scope = (typeof SCOPES)[number];

export const READ_SCOPES: Scope[] = SCOPES.filter((scope) => scope.startsWith('read:'));

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
