import type { ServiceAudience, ServiceClaims, ServiceTokens } from "@ams/shared";
import { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
import { must } from "@ams/shared/testing";
import type { Upstream } from "../../src/gateway/upstream.ts";

export type RecordedCall = { method: string; url: URL; headers: Headers; body: string; claims: ServiceClaims | null };

/**
 * A stand-in upstream used ONLY to observe what the gateway forwards (method, path, body, headers and the claims
 * of the inter-service token, verified with the real verifier). Access decisions are tested against the real
 * tenant in the authorization table test.
 */
export function createRecordingUpstream(tokens: ServiceTokens, audience: ServiceAudience) {
  const calls: RecordedCall[] = [];
  const upstream: Upstream & { calls: RecordedCall[]; last(): RecordedCall } = {
    calls,
    last: () => must(calls.at(-1), `a call forwarded to ${audience}`),
    async fetch(req) {
      const token = req.headers.get(SERVICE_TOKEN_HEADER);
      const claims = token ? await tokens.verify(token, audience) : null;
      calls.push({ method: req.method, url: new URL(req.url), headers: req.headers, body: await req.text(), claims });
      return Response.json({ upstream: audience, claims }, { headers: { "set-cookie": "planted=1; Path=/" } });
    },
  };
  return upstream;
}
