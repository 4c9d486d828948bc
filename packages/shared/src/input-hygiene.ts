import { AppError } from "./errors.ts";

const NUL = "\u0000";
/** How deep findNulPath looks; deeper input is refused by the schemas anyway, and this keeps the walk bounded. */
const MAX_DEPTH = 64;

/**
 * The path of the first string (or object key) holding a NUL character, as the validation errors name fields
 * ("properties.Owner", "nodes.3.label"); undefined when there is none. PostgreSQL cannot store NUL in text, so
 * every surface refuses it up front, naming the field, instead of letting the database fail with a 500.
 */
export function findNulPath(value: unknown, prefix = "", depth = 0): string | undefined {
  if (typeof value === "string") return value.includes(NUL) ? prefix || "(root)" : undefined;
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulPath(value[i], prefix ? `${prefix}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (key.includes(NUL)) return path.replaceAll(NUL, "\\u0000");
    const found = findNulPath(child, path, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The 422 for a NUL character at `path`. */
export function nulCharacterError(path: string): AppError {
  const message = "must not contain the NUL character (\\u0000)";
  return new AppError("VALIDATION", `${path}: ${message}`, { errors: [{ path, message }] });
}

/**
 * Where a request's URL carries a NUL character: "path" or "query.<name>"; undefined when it carries none.
 * Reads the URL only, so it costs nothing for requests without "%00".
 */
export function findNulInUrl(url: string): string | undefined {
  if (!url.includes("%00") && !url.includes(NUL)) return undefined;
  const parsed = new URL(url);
  let decodedPath = parsed.pathname;
  try {
    decodedPath = decodeURIComponent(parsed.pathname);
  } catch {}
  if (decodedPath.includes(NUL)) return "path";
  for (const [name, value] of parsed.searchParams) {
    if (name.includes(NUL) || value.includes(NUL)) return `query.${name.replaceAll(NUL, "\\u0000")}`;
  }
  return undefined;
}

/**
 * Checks a request's URL and, for JSON bodies, its body (a clone: the route reads the original). Throws the 422
 * naming the field. A body that is not valid JSON is left to the route's own validation.
 */
export async function assertNoNulInRequest(request: Request): Promise<void> {
  const inUrl = findNulInUrl(request.url);
  if (inUrl) throw nulCharacterError(inUrl);
  const type = request.headers.get("content-type") ?? "";
  if (!request.body || !/^application\/(?:[\w.+-]+\+)?json/i.test(type)) return;
  const text = await request.clone().text();
  if (!text.includes("\\u0000") && !text.includes(NUL)) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const inBody = findNulPath(body);
  if (inBody) throw nulCharacterError(inBody);
}
