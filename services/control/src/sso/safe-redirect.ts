const BASE = "http://same-site.invalid";

/**
 * A path on this site to return to after sign-in, or "/" when `from` is anything else: absolute URLs,
 * protocol-relative "//host", backslash tricks ("/\host") and control characters are all refused, so the
 * sign-in flow can never be used as an open redirect.
 */
export function safeRedirectPath(from: string | undefined | null): string {
  if (!from || from.length > 2000) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!from.startsWith("/") || from.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(from)) return "/";
  let url: URL;
  try {
    url = new URL(from, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? "/" : path;
}
