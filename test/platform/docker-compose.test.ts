import { existsSync, readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { isStartable } from '../../launcher/system.js';
import { projectPath } from '../../platform/project-path.js';

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

// js-yaml resolves the file's anchors and merge keys (`<<: *service`) as compose does.
const compose = load(readFileSync(projectPath('docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
};
const PORTS = { library: 5001, account: 5002, identity: 5003, audit: 5004, gateway: 4000 };
const SERVICES = ['library', 'account', 'identity', 'audit'] as const;

describe('issue 13 item 6: docker-compose runs every service, keys where they belong, the gateway after their health', () => {
  it.each(Object.entries(PORTS))(
    '%s runs from the image with its name and checks its own /healthz/startup',
    (name, port) => {
      const service = compose.services[name]!;
      expect(service.command).toEqual([name]);
      expect(isStartable(name)).toBe(true);
      expect(service.healthcheck?.test).toEqual([
        'CMD',
        'node',
        'dist/launcher/healthcheck.js',
        `http://127.0.0.1:${port}/healthz/startup`,
      ]);
    },
  );

  it('the health check script it runs is part of the build', () => {
    expect(existsSync(projectPath('launcher/healthcheck.ts'))).toBe(true);
    const build = JSON.parse(readFileSync(projectPath('tsconfig.build.json'), 'utf8')) as {
      include: string[];
    };
    expect(build.include).toContain('launcher');
  });

  it('only the identity service, which signs tokens, is given the private key; every service verifies with the public key', () => {
    for (const name of SERVICES) {
      const environment = compose.services[name]!.environment ?? {};
      expect(environment.Jwt__PublicKey).toBeDefined();
      if (name === 'identity') expect(environment.Jwt__PrivateKey).toBeDefined();
      else expect(environment).not.toHaveProperty('Jwt__PrivateKey');
    }
    expect(compose.services.gateway!.environment).not.toHaveProperty('Jwt__PrivateKey');
  });

  it('the library service is given the master key it needs in production, and its peers find it', () => {
    expect(compose.services.library!.environment?.Encryption__MasterKey).toBeDefined();
    expect(compose.services.gateway!.environment?.Library__ApiUrl).toBe('http://library:5001');
  });

  it('the gateway waits until every service is healthy', () => {
    expect(compose.services.gateway!.depends_on).toEqual(
      Object.fromEntries(SERVICES.map((name) => [name, { condition: 'service_healthy' }])),
    );
  });
});
