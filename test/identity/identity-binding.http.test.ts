import type { TestSystem } from '../support/test-system.js';
import { startTestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit'],
    overrides: { HOST: '0.0.0.0' },
  });
});

afterAll(() => system.stop());

const portOf = (url: string) => new URL(url).port;

/** Whether anything answers HTTP at this address; false when the connection is refused. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

describe('CONTRACT 1: the identity service binds IDENTITY_HOST (127.0.0.1 by default) whatever HOST is', () => {
  it('with HOST 0.0.0.0, the identity service is on 127.0.0.1 while the account service is on 0.0.0.0', () => {
    expect(new URL(system.system.urls.identity!).hostname).toBe('127.0.0.1');
    expect(new URL(system.system.urls.account!).hostname).toBe('0.0.0.0');
    expect(system.settings.http.identityHost).toBe('127.0.0.1');
  });

  it('the identity service answers on 127.0.0.1 only: another loopback address is refused, where the account service answers', async () => {
    const identityPort = portOf(system.system.urls.identity!);
    const accountPort = portOf(system.system.urls.account!);
    expect(await answers(`http://127.0.0.1:${identityPort}/healthz/startup`)).toBe(true);
    // 127.0.0.2 reaches this machine too, but only a socket bound to every address listens on it.
    expect(await answers(`http://127.0.0.2:${accountPort}/healthz/startup`)).toBe(true);
    expect(await answers(`http://127.0.0.2:${identityPort}/healthz/startup`)).toBe(false);
  });
});
