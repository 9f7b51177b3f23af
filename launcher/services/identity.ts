import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { DirectAuditPublisher } from '../../platform/audit-log/direct-audit-publisher.js';
import { TokenSigner } from '../../platform/auth/token-signer.js';
import { AccountClient } from '../../platform/clients/account-client.js';
import { startServiceHost } from '../../platform/http/service-host.js';
import { IDENTITY_API } from '../../rest-facade/identity/identity.api.js';
import { refreshCors } from '../../rest-facade/identity/refresh-cors.js';
import { TokenService } from '../../identity/token.service.js';
import type { PlatformContext, StartedService } from '../platform-context.js';
import { startService } from '../service-parts.js';

/**
 * The identity service: mints session tokens. No storage and no subgraph; it binds
 * IDENTITY_HOST (loopback by default), since it enforces no permission itself.
 */
export function startIdentityService(platform: PlatformContext): Promise<StartedService> {
  const { settings, queue, clock, keys } = platform;
  const logger = platform.logger.child({ service: 'identity' });
  return startService(logger, async (parts) => {
    const audit = parts.add(new DirectAuditPublisher(queue, new AuditLog(clock), logger), (publisher) =>
      publisher.stop(),
    );
    const tokens = new TokenService({
      account: new AccountClient(() => platform.peerUrl('account')),
      signer: new TokenSigner(keys, settings.jwt),
      verifier: platform.verifier,
      audit,
      clock,
      jwt: settings.jwt,
      logger,
    });
    const host = parts.add(
      await startServiceHost(
        {
          ...IDENTITY_API,
          routes: IDENTITY_API.routesFor(tokens),
          middleware: [refreshCors(settings.tokenRefresh.allowedOrigins)],
          readiness: async () => ({ signingKey: keys.privateKey !== undefined, queue: queue.isReady() }),
        },
        {
          host: settings.http.identityHost,
          port: settings.http.ports.identity,
          verifier: platform.verifier,
          logger,
          metrics: platform.metrics,
        },
      ),
      (running) => running.close(),
    );
    return { url: host.url };
  });
}
