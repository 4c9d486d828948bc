/** Text for HTML: every value from a user or a client (names, ids, URIs) goes through this. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * The security headers of the OAuth pages: no script at all, inline styles only, never framed (clickjacking a
 * consent button), not cached, no referrer (the page URL carries the client's state).
 */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

const STYLE = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .3rem}select,input{width:100%;padding:.4rem;font-size:1rem;box-sizing:border-box}
.actions{display:flex;gap:.8rem;margin-top:1.2rem}button{padding:.5rem 1.2rem;font-size:1rem}
.error{color:#a00}.muted{color:#666;font-size:.9rem}code{word-break:break-all}`;

/** A minimal server-rendered page (the browser UI will own a styled consent page; this one needs no script). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/** Hidden inputs carrying the authorization request through a form. */
export function hiddenFields(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v!)}">`)
    .join("");
}
