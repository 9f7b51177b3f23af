import type { TestResponse } from '../support/http-client.js';
import type { TestSystem } from '../support/test-system.js';

export interface LoginBody {
  orgId: string;
  email: string;
  name?: string;
  provider?: string;
  providerUserId?: string;
  profileImage?: string | null;
}

/** POST /generatejwt with the login's body; the provider identity defaults to one derived from the address. */
export function login(system: TestSystem, body: LoginBody): Promise<TestResponse<string>> {
  return system.client('identity').post<string>('/generatejwt', {
    body: { provider: 'Entra', providerUserId: `oid-${body.email}`, name: 'Someone', ...body },
  });
}

/** Like login, but fails the test unless a token came back; answers the token. */
export async function loginToken(system: TestSystem, body: LoginBody): Promise<string> {
  const response = await login(system, body);
  if (response.status !== 200) throw new Error(`login refused: ${response.status} ${response.text}`);
  return response.text;
}
