import type { RequestHandler } from 'express';
import { SESSION_HEADER } from '../../platform/auth/token-reader.js';
import { ForbiddenError } from '../../platform/errors/domain-errors.js';

export const REFRESH_PATH = '/refreshjwt';

/**
 * A browser may call /refreshjwt only from an origin in TokenRefresh:AllowedOrigins (spec
 * 5.7): a request carrying another Origin is refused, preflight included; an allowed one
 * gets CORS headers with credentials, so the session cookie goes along. Requests without
 * an Origin do not come from a browser page and pass.
 */
export function refreshCors(allowedOrigins: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (req.path !== REFRESH_PATH) {
      next();
      return;
    }
    const origin = req.header('origin');
    if (!origin) {
      next();
      return;
    }
    if (!allowedOrigins.includes(origin)) {
      next(new ForbiddenError('This origin may not refresh session tokens.'));
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.vary('Origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', `content-type, ${SESSION_HEADER}`);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
