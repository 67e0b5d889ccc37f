/**
 * Who is calling over HTTP. Runs belong to principals: a run is readable and writable only by the principal that
 * started it. Two ways to authenticate, both through the SDK's bearer-auth middleware (so a missing or bad token is
 * 401 with a `WWW-Authenticate` header, as the MCP authorization spec wants):
 *   - static tokens: a file of `principal token` lines (the minimum for a server on a network address);
 *   - OAuth 2.1 resource-server mode: tokens issued by an authorization server, checked by token introspection
 *     (RFC 7662), with the protected resource metadata (RFC 9728) published at
 *     `/.well-known/oauth-protected-resource` so clients can find the authorization server.
 * Without either, the server only listens on loopback and every caller is the principal `local` (the same as
 * over stdio).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  type VerifyBearerTokenOptions,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the bearer-auth middleware: who the token says the caller is. */
    auth?: AuthInfo;
  }
}

export const LOCAL_PRINCIPAL = 'local';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export interface HttpAuth {
  /** Authenticates a request (401 when it cannot), leaving `req.auth` set. */
  readonly middleware: RequestHandler;
  /** Extra routes to serve unauthenticated (the protected resource metadata). */
  readonly publicRoutes?: ReadonlyMap<string, RequestHandler>;
  /** How the server describes it in its start-up line. */
  readonly description: string;
}

/** The principal of an authenticated request; `local` when the server runs without authentication. */
export function principalOf(req: Request): string {
  return principalOfAuth(req.auth);
}

/** The principal a verified token names (its subject, else its client); `local` without one. */
export function principalOfAuth(info: AuthInfo | undefined): string {
  if (info === undefined) return LOCAL_PRINCIPAL;
  const subject = info.extra?.['sub'];
  return typeof subject === 'string' && subject !== '' ? subject : info.clientId;
}

/**
 * Express middleware over the SDK's runtime-neutral bearer check: a missing or bad token gets the SDK's
 * challenge (401 with `WWW-Authenticate`, 403 for a missing scope), a good one sets `req.auth`.
 */
function requireBearerAuth(options: VerifyBearerTokenOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    verifyBearerToken(req.headers.authorization, options).then(
      (info) => {
        req.auth = info;
        next();
      },
      async (error: unknown) => {
        const challenge = bearerAuthChallengeResponse(error, options);
        res.status(challenge.status);
        for (const [name, value] of challenge.headers) res.setHeader(name, value);
        res.send(Buffer.from(await challenge.arrayBuffer()));
      },
    );
  };
}

/** Tokens from a file of `principal token` lines (`#` comments and blank lines ignored). */
export function staticTokenAuth(tokens: ReadonlyMap<string, string>, description = `${tokens.size} bearer token(s)`): HttpAuth {
  // Compared as sha256 digests with timingSafeEqual: equal lengths, and no early exit on the first differing byte.
  const known = [...tokens].map(([token, principal]) => ({ digest: digest(token), principal }));
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      const given = digest(token);
      const match = known.find((entry) => timingSafeEqual(entry.digest, given));
      if (match === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown bearer token');
      return { token, clientId: match.principal, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    },
  };
  return { middleware: requireBearerAuth({ verifier }), description };
}

export function readTokenFile(path: string): ReadonlyMap<string, string> {
  const tokens = new Map<string, string>();
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const [principal, token, extra] = line.split(/\s+/);
      if (principal === undefined || token === undefined || extra !== undefined) {
        throw new Error(`${path}:${index + 1}: expected "principal token", got "${line}"`);
      }
      if (tokens.has(token)) throw new Error(`${path}:${index + 1}: this token is already given to ${tokens.get(token)}`);
      tokens.set(token, principal);
    });
  if (tokens.size === 0) throw new Error(`${path} holds no tokens (one "principal token" per line)`);
  return tokens;
}

export interface IntrospectionOptions {
  /** The authorization server's issuer URL (published in the resource metadata). */
  readonly issuer: string;
  /** Its RFC 7662 introspection endpoint. */
  readonly introspectionUrl: string;
  /** This server's client credentials at the authorization server, for introspection. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** This server's canonical URL (the MCP endpoint): tokens must be issued for it (audience). */
  readonly resource: string;
}

/** OAuth 2.1 resource-server mode: bearer tokens checked by introspection at the authorization server. */
export function introspectionAuth(options: IntrospectionOptions): HttpAuth {
  const basic = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64');
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token): Promise<AuthInfo> {
      let answer: Record<string, unknown>;
      try {
        const response = await fetch(options.introspectionUrl, {
          method: 'POST',
          headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token }).toString(),
          signal: AbortSignal.timeout(5_000),
        });
        if (!response.ok) throw new Error(`introspection answered ${response.status}`);
        answer = (await response.json()) as Record<string, unknown>;
      } catch (error) {
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `Token introspection failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (answer['active'] !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not active');
      const audience = answer['aud'];
      const audiences = Array.isArray(audience) ? audience.map(String) : typeof audience === 'string' ? [audience] : [];
      const sub = typeof answer['sub'] === 'string' ? answer['sub'] : undefined;
      const clientId = typeof answer['client_id'] === 'string' ? answer['client_id'] : (sub ?? 'unknown');
      return {
        token,
        clientId,
        scopes: typeof answer['scope'] === 'string' ? answer['scope'].split(' ').filter(Boolean) : [],
        expiresAt: typeof answer['exp'] === 'number' ? answer['exp'] : Math.floor(Date.now() / 1000) + 60,
        ...(audiences[0] === undefined ? {} : { resource: new URL(audiences.find((a) => a === options.resource) ?? audiences[0]) }),
        ...(sub === undefined ? {} : { extra: { sub } }),
      };
    },
  };
  const metadataUrl = new URL(RESOURCE_METADATA_PATH, options.resource).href;
  const metadata = (_req: Request, res: Response): void => {
    res.json({ resource: options.resource, authorization_servers: [options.issuer], bearer_methods_supported: ['header'] });
  };
  return {
    middleware: requireBearerAuth({ verifier, resourceMetadataUrl: metadataUrl, expectedResource: new URL(options.resource) }),
    publicRoutes: new Map([[RESOURCE_METADATA_PATH, metadata]]),
    description: `OAuth tokens of ${options.issuer} (introspection)`,
  };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
