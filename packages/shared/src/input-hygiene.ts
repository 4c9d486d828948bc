import { AppError } from "./errors.ts";

const NUL = "\u0000";
/** How deep the walk looks; deeper input is refused by the schemas anyway, and this keeps the walk bounded. */
const MAX_DEPTH = 64;

/**
 * Text PostgreSQL cannot store: a NUL character, or a UTF-16 surrogate without its partner (JSON can carry one as
 * "\udfff"; it is not a Unicode character, and text and jsonb columns refuse it). Every surface refuses such text up
 * front, naming the field, instead of letting the database fail with a 500.
 */
export type UnstorableText = { path: string; problem: "nul" | "surrogate" };

function problemOf(text: string): UnstorableText["problem"] | undefined {
  if (text.includes(NUL)) return "nul";
  if (!text.isWellFormed()) return "surrogate";
  return undefined;
}

const printable = (key: string) => key.replaceAll(NUL, "\\u0000").toWellFormed();

/**
 * The first string (or object key) of a parsed JSON value that cannot be stored, with its path as the validation
 * errors name fields ("properties.Owner", "nodes.3.label"); undefined when there is none.
 */
export function findUnstorableText(value: unknown, prefix = "", depth = 0): UnstorableText | undefined {
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem ? { path: prefix || "(root)", problem } : undefined;
  }
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], prefix ? `${prefix}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const problem = problemOf(key);
    if (problem) return { path: printable(path), problem };
    const found = findUnstorableText(child, path, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The 422 for unstorable text at `found.path`. */
export function unstorableTextError(found: UnstorableText): AppError {
  const message =
    found.problem === "nul"
      ? "must not contain the NUL character (\\u0000)"
      : "must be valid Unicode text (it holds an unpaired surrogate such as \\udfff)";
  return new AppError("VALIDATION", `${found.path}: ${message}`, { errors: [{ path: found.path, message }] });
}

/**
 * Where a request's URL carries a NUL character: "path" or "query.<name>"; undefined when it carries none.
 * Reads the URL only, so it costs nothing for ordinary requests.
 */
export function findUnstorableTextInUrl(url: string): UnstorableText | undefined {
  // Percent-encoded surrogates are not valid UTF-8 and decode to U+FFFD: only NUL can arrive through a URL.
  if (!url.includes("%00") && !url.includes(NUL)) return undefined;
  const parsed = new URL(url);
  let decodedPath = parsed.pathname;
  try {
    decodedPath = decodeURIComponent(parsed.pathname);
  } catch {}
  const inPath = problemOf(decodedPath);
  if (inPath) return { path: "path", problem: inPath };
  for (const [name, value] of parsed.searchParams) {
    const problem = problemOf(name) ?? problemOf(value);
    if (problem) return { path: `query.${printable(name)}`, problem };
  }
  return undefined;
}

/**
 * Checks a request's URL and, for JSON bodies, its body (a clone: the route reads the original). Throws the 422
 * naming the field. A body that is not valid JSON is left to the route's own validation.
 */
export async function assertStorableText(request: Request): Promise<void> {
  const inUrl = findUnstorableTextInUrl(request.url);
  if (inUrl) throw unstorableTextError(inUrl);
  const type = request.headers.get("content-type") ?? "";
  if (!request.body || !/^application\/(?:[\w.+-]+\+)?json/i.test(type)) return;
  const text = await request.clone().text();
  // Fast path: without a NUL or a \uD800-\uDFFF escape, the parsed body cannot hold unstorable text.
  if (!text.includes(NUL) && !/\\u(?:0000|[dD][89a-fA-F])/.test(text)) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const found = findUnstorableText(body);
  if (found) throw unstorableTextError(found);
}
