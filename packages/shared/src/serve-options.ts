type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/**
 * Wraps a server's fetch so that a 413 answer closes the connection: the refused body was not read, and a client
 * that kept the connection alive would otherwise send its next request into the remains of that body. Node's HTTP
 * server closes the socket after a response that carries `Connection: close`, and clients then open a new one.
 */
export function closeAfterRefusedBody<F extends Fetch>(fetch: F): F {
  return (async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    if (response.status !== 413) return response;
    const headers = new Headers(response.headers);
    headers.set("connection", "close");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }) as F;
}

/**
 * The address a service listens on: HOST when set (the images set 0.0.0.0), otherwise loopback, so that a laptop
 * running the standalone shape does not offer its sign-in page to the whole network.
 */
export function listenHost(value: string | undefined): string {
  return value?.trim() || "127.0.0.1";
}
