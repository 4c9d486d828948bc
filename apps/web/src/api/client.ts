/**
 * The one way the UI talks to the server: same-origin fetch with the session cookies, problem+json turned into
 * ApiError (plain words from `detail` and the field `errors`), and one silent refresh of an expired access token.
 */

export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: FieldError[];
  /** 412: the object as it is now (the server's answer to a stale If-Match), to merge into and send again. */
  readonly current?: { revision: number } & Record<string, unknown>;
  constructor(
    status: number,
    message: string,
    code?: string,
    errors: FieldError[] = [],
    current?: ApiError["current"],
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.current = current;
  }
}

/** The object a 412 answered with (someone else changed it since the revision sent in If-Match), else undefined. */
export function staleObject<T extends { revision: number }>(err: unknown): T | undefined {
  return err instanceof ApiError && err.status === 412 && err.current ? (err.current as unknown as T) : undefined;
}

/** Plain words for any failure, for the error banner and inline messages. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
    const detail = err.message.trim();
    const extra = fields.filter((f) => !detail.includes(f));
    return extra.length ? `${detail} (${extra.join("; ")})` : detail;
  }
  if (err instanceof TypeError) return "The server could not be reached. Check your connection and try again.";
  return err instanceof Error ? err.message : String(err);
}

const STATUS_WORDS: Record<number, string> = {
  400: "The request was not understood.",
  401: "You are signed out. Sign in again.",
  403: "You do not have permission to do that.",
  404: "It no longer exists. Someone may have deleted it meanwhile.",
  409: "It changed meanwhile. Reload and try again.",
  412: "Someone else changed it meanwhile; nothing was saved.",
  413: "The file or request is too large.",
  422: "Some values are not valid.",
  429: "Too many attempts. Wait a moment and try again.",
  503: "This feature is not available right now.",
};

async function toApiError(res: Response): Promise<ApiError> {
  // problem+json from our routes; better-auth's own endpoints (/auth/*) answer {code, message}.
  let body: { detail?: string; title?: string; message?: string; code?: string; errors?: FieldError[] } = {};
  try {
    body = await res.json();
  } catch {}
  // A stale If-Match answers the object as it is now, not a problem.
  if (res.status === 412 && typeof (body as { revision?: unknown }).revision === "number") {
    return new ApiError(412, STATUS_WORDS[412] ?? "", "PRECONDITION_FAILED", [], body as ApiError["current"]);
  }
  const words =
    body.detail || body.title || body.message || STATUS_WORDS[res.status] || `The server answered ${res.status}.`;
  return new ApiError(res.status, words, body.code, Array.isArray(body.errors) ? body.errors : []);
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
/** Called when a request finds the session gone for good (refresh refused). */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

let refreshing: Promise<boolean> | null = null;
function refreshSession(): Promise<boolean> {
  refreshing ??= fetch("/api/auth/refresh", { method: "POST", credentials: "same-origin" })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export type RequestOptions = {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  raw?: boolean;
  /** The revision of the object as this screen last saw it: sent as If-Match, so a change made since is never overwritten. */
  revision?: number;
};

function urlOf(path: string, query?: RequestOptions["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function send(method: string, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.revision !== undefined) headers["if-match"] = `"${opts.revision}"`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  return fetch(urlOf(path, opts.query), { method, headers, body, credentials: "same-origin" });
}

// A refused sign-in step is no expired session: no refresh, and never sent twice (each wrong code counts).
const NO_REFRESH = new Set([
  "/api/auth/local/login",
  "/api/auth/refresh",
  "/api/auth/local/login/two-factor",
  "/auth/two-factor/verify-totp",
  "/auth/two-factor/verify-backup-code",
]);

const twoFactorListeners = new Set<Listener>();
/** Called when an organization refuses this browser session until two-factor is on (403 TWO_FACTOR_REQUIRED). */
export function onTwoFactorRequired(listener: Listener): () => void {
  twoFactorListeners.add(listener);
  return () => twoFactorListeners.delete(listener);
}

/** JSON request; throws ApiError for any non-2xx answer. 204 resolves to undefined. */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts);
  if (res.status === 401 && !NO_REFRESH.has(path)) {
    if (await refreshSession()) res = await send(method, path, opts);
    if (res.status === 401) for (const l of signedOutListeners) l();
  }
  if (!res.ok) {
    const error = await toApiError(res);
    if (error.code === "TWO_FACTOR_REQUIRED") for (const l of twoFactorListeners) l();
    throw error;
  }
  if (opts.raw) return res as T;
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  const answer = type.includes("json") ? await res.json() : await res.text();
  if (method !== "GET" && typeof answer?.revision === "number") ownRevisions.add(answer.revision);
  return answer as T;
}

/**
 * The revisions this tab's own writes produced (every write's answer names its change group's revision): undo tells
 * the user's own later changes to an object, which it may step over, from someone else's, which it must not undo.
 */
const ownRevisions = new Set<number>();
export const isOwnRevision = (revision: number): boolean => ownRevisions.has(revision);

export const api = {
  get: <T>(path: string, query?: RequestOptions["query"]) => request<T>("GET", path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, { body }),
  /** `revision`: the object's revision as last seen, sent as If-Match (a 412 ApiError carries the current object). */
  put: <T>(path: string, body?: unknown, revision?: number) => request<T>("PUT", path, { body, revision }),
  del: <T = void>(path: string, revision?: number) => request<T>("DELETE", path, { revision }),
  raw: (method: string, path: string, body?: unknown) => request<Response>(method, path, { body, raw: true }),
};

/**
 * Upload with progress (fetch has no upload progress): XMLHttpRequest with the same cookies and the same errors.
 */
export function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new TypeError("network"));
    xhr.onload = async () => {
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        headers: { "content-type": xhr.getResponseHeader("content-type") ?? "" },
      });
      if (!res.ok) return reject(await toApiError(res));
      resolve(res.status === 204 ? (undefined as T) : ((await res.json()) as T));
    };
    xhr.send(form);
  });
}
