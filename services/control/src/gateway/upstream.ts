/**
 * Where the gateway sends a request: the other service's `app.fetch` in standalone mode, an HTTP forwarder
 * (http-upstream.ts) in split mode. Either way the request carries the inter-service token.
 */
export type Upstream = { fetch(req: Request): Response | Promise<Response> };
