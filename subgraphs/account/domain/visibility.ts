import type { Caller } from '../../../platform/auth/caller.js';
import { holds } from '../../../platform/permissions/authorize.js';

/** An account's identities, groups and photo are seen with UserRead, and by the account itself. */
export function maySeeAccountDetails(caller: Caller, accountId: string): boolean {
  return holds(caller, 'UserRead') || caller.accountId === accountId;
}

/** An organization beyond its name, activity and branding is seen with GlobalOrganizationRead. */
export function maySeeOrganizationDetails(caller: Caller): boolean {
  return holds(caller, 'GlobalOrganizationRead');
}
