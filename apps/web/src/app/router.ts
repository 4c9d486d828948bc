import { createStore, useStore } from "./store.ts";

/** The path the app shows; pushState navigation without reloads, back/forward restored. */
export const location = createStore({ path: window.location.pathname, search: window.location.search });

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  if (opts.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  location.set({ path: url.pathname, search: url.search });
}

window.addEventListener("popstate", () =>
  location.set({ path: window.location.pathname, search: window.location.search }),
);

export const useLocation = () => useStore(location);

export function queryParam(name: string): string | null {
  return new URLSearchParams(location.get().search).get(name);
}

/**
 * Where to go once signed in (or past a forced password change): the `from` parameter when it is a path of this
 * site, "/" otherwise. Never another origin: no scheme, no `//host`, and no backslash (browsers read `/\host` as
 * `//host`); never back to the sign-in page.
 */
export function returnPath(): string {
  const from = queryParam("from");
  if (!from?.startsWith("/") || from.startsWith("//") || from.includes("\\")) return "/";
  return from.startsWith("/login") || from.startsWith("/change-password") ? "/" : from;
}

/** `path` with the return path carried along, for a detour (sign-in, a forced password change) that comes back. */
export function withReturn(path: string, here: string): string {
  return here === "/" ? path : `${path}?from=${encodeURIComponent(here)}`;
}

/** Same-app links: plain anchors (keyboard, middle click, copy link) that navigate without reloading. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href") ?? "/");
}
