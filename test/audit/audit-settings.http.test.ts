import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['audit'],
    overrides: { 'Audit:AuthNotRequired': 'Authentication,Logout' },
  });
});

afterAll(() => system.stop());

describe('spec 8.5: Audit:AuthNotRequired configures which entry types need no token', () => {
  it('accepts a configured type without a token', async () => {
    const response = await system
      .client('audit')
      .post('/', { body: { entryType: 'Logout', action: 'Logout' } });
    expect(response.status).toBe(200);
  });

  it('refuses a default type that the configuration left out', async () => {
    const response = await system.client('audit').post('/', { body: { entryType: 'JWT', action: 'Create' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });
});
