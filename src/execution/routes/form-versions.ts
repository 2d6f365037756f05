import type { RequestContext } from '../../context.js';
import { accountFormsVersion, formVersion } from '../../domain/forms/form-version.js';
import type { BodyVersion } from '../route.js';

/* The versions of the forms rows' bodies (their `version` option): one statement each, read before the body. */

const accountId = (context: RequestContext): number | null => (context.viewer?.kind === 'apiKey' ? context.viewer.accountId : null);

/**
 * Every form of the account, archived ones and every site included: archiving, restoring, a PATCH, a new form or a
 * new submission each add one to the sum, whichever page, domainId or archived filter is asked for.
 */
export const accountFormsBodyVersion: BodyVersion = async (context) => {
  const account = accountId(context);
  return account === null ? null : (await accountFormsVersion(context.deps.db, account)).version;
};

export const formBodyVersion: BodyVersion = async (context, input) => {
  const account = accountId(context);
  if (account === null || input.params.id === undefined) return null;
  const form = await formVersion(context.deps.db, account, input.params.id);
  return form && !form.archived ? String(form.version) : null;
};

/** A PHI form's submissions are built every time: each read of them is audited (contract §4). */
export const formSubmissionsBodyVersion: BodyVersion = async (context, input) => {
  const account = accountId(context);
  if (account === null || input.params.id === undefined) return null;
  const form = await formVersion(context.deps.db, account, input.params.id);
  return form && !form.phi ? String(form.version) : null;
};
