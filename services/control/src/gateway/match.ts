import type { Method, RouteRule } from "./routes.ts";

export type RouteMatch = { rule: RouteRule; params: Record<string, string> };

type Compiled = { rule: RouteRule; segments: string[] };

/** Splits like the router does: "/api/views/:id" -> ["api","views",":id"]; a trailing slash is its own "" segment. */
function split(path: string): string[] {
  return path.split("/").slice(1);
}

/** Static segments win over parameters at the first position where two patterns differ. */
function moreSpecific(a: Compiled, b: Compiled): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const aParam = a.segments[i]?.startsWith(":");
    const bParam = b.segments[i]?.startsWith(":");
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

export type RouteMatcher = (method: string, path: string) => RouteMatch | null;

/** Compiles the table into a per-method, per-length index. HEAD is matched as GET. */
export function createMatcher(table: readonly RouteRule[]): RouteMatcher {
  const index = new Map<string, Compiled[]>();
  for (const rule of table) {
    const segments = split(rule.path);
    const key = `${rule.method} ${segments.length}`;
    const list = index.get(key) ?? [];
    list.push({ rule, segments });
    index.set(key, list);
  }
  for (const list of index.values()) list.sort(moreSpecific);

  return (method, path) => {
    const m = (method === "HEAD" ? "GET" : method) as Method;
    const parts = split(path);
    const candidates = index.get(`${m} ${parts.length}`);
    if (!candidates) return null;
    for (const { rule, segments } of candidates) {
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const seg = segments[i] ?? "";
        const part = parts[i] ?? "";
        if (seg.startsWith(":")) {
          if (part === "") ok = false;
          else params[seg.slice(1)] = safeDecode(part);
        } else if (seg !== part) ok = false;
      }
      if (ok) return { rule, params };
    }
    return null;
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
