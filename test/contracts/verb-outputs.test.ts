import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as model from "@ams/model";
import { describe, expect, test } from "vitest";
import { ROOT } from "../architecture/import-graph.ts";

/**
 * Every verb states its answer as the inferred type of an output schema (`Promise<Element>` where
 * `type Element = z.infer<typeof Element>`, or `z.infer<typeof X>` itself), so that a verb returning a shape its
 * schema does not describe fails typecheck, and REST's OpenAPI and MCP's outputSchema describe what the verb
 * really answers. A verb is an exported function of packages/model or of control's verbs taking `{ ctx, ... }`
 * (or a plugin registry). The few whose answer is not JSON data are listed with the reason.
 */
const NOT_DATA: Record<string, string> = {
  exportModel: "Open Exchange XML and its file name",
  exportModelStream: "Open Exchange XML as a stream of its bytes, and its file name",
  exportZip: "a ZIP stream",
  exportCsv: "a ZIP stream of Archi's three CSV files",
  exportReport: "a ZIP stream of the HTML report",
  listElementsJson: "the JSON bytes of listElements' answer (Element[], tested byte for byte against it)",
  listRelationshipsJson:
    "the JSON bytes of listRelationships' answer (Relationship[], tested byte for byte against it)",
  renderView: "SVG markup",
  renderViewImage: "an SVG or PNG image",
  renderViewDiffImage: "an SVG or PNG image of a view's changes",
  renderPlateauGap: "an SVG or PNG image of two plateaus' difference",
  previewPluginIcon: "a sanitized SVG icon with its ETag",
  getPublicPluginIcon: "a sanitized SVG icon with its ETag",
  signIn: "the identity the route starts a session for (the HTTP answer is SignedIn, built from it)",
  changePassword: "the renewed identity the route turns into a new access cookie (the HTTP answer is 204)",
  skipPasswordChange: "the renewed identity the route turns into a new access cookie (the HTTP answer is 204)",
  completeTwoFactorSignIn: "the identity the route starts a session for (the HTTP answer is SignedIn, built from it)",
  registerFromInvitation:
    "the new account and membership the route signs in (the HTTP answer is RegisteredAccount, built from them)",
};

type Declared = { name: string; file: string; returns: string | null; params: string };

/** Exported verbs of a source file with their declared return type (null when none is written). */
function verbsOf(source: string, file: string): Declared[] {
  const verbs: Declared[] = [];
  const start = /^export (?:async )?function (\w+)(?:<[^>\n]*>)?\(\{/gm;
  for (let m = start.exec(source); m; m = start.exec(source)) {
    const name = m[1] ?? "";
    let depth = 1;
    const open = m.index + m[0].length - 2;
    let i = open;
    while (depth > 0 && ++i < source.length) {
      if (source[i] === "(") depth++;
      else if (source[i] === ")") depth--;
    }
    const params = source.slice(open, i + 1);
    if (!/^\(\{[^}]*\b(ctx|plugins)\b/.test(params)) continue;
    const rest = source.slice(i + 1, source.indexOf(" {\n", i));
    verbs.push({ name, file, returns: rest.startsWith(": ") ? rest.slice(2).trim() : null, params });
  }
  return verbs;
}

/** The schema a declared type names: `Promise<readonly X[]>` → X, `z.infer<typeof X>` → X; "void" for none. */
function schemaNamed(returns: string): string {
  let type = returns.replace(/^Promise<(.*)>$/s, "$1").trim();
  // `X | null`: an answer of schema X, or none (a sign-in without a second step needs no challenge).
  type = type
    .replace(/^readonly /, "")
    .replace(/\[\]$/, "")
    .replace(/\s*\|\s*null$/, "");
  const inferred = /^z\.(?:infer|output)<typeof (\w+)>$/.exec(type);
  return inferred?.[1] ?? type;
}

const isSchema = (value: unknown) => typeof (value as { safeParse?: unknown } | undefined)?.safeParse === "function";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Verbs whose declared answer is not a schema's type: "name (file): why". */
function unschemed(verbs: Declared[], schemas: Map<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const verb of verbs) {
    if (NOT_DATA[verb.name]) continue;
    const where = `${verb.name} (${verb.file})`;
    if (!verb.returns) {
      wrong.push(`${where}: no declared answer`);
      continue;
    }
    const schema = schemaNamed(verb.returns);
    if (schema !== "void" && !isSchema(schemas.get(schema))) {
      wrong.push(`${where}: ${verb.returns} is not the type of an output schema`);
    }
  }
  return wrong;
}

async function controlSchemas(): Promise<Map<string, unknown>> {
  const files = sourceFiles(join(ROOT, "services/control/src")).filter((f) => f.endsWith("schemas.ts"));
  const found = new Map<string, unknown>();
  for (const file of files) for (const [k, v] of Object.entries(await import(file))) found.set(k, v);
  return found;
}

/**
 * Model verbs taking a request context that do not declare their argument as `Verb<I>` (or `PluginVerb<I>`, the
 * same with the plugin registry beside it), so a change to what every verb receives reaches all of them.
 */
function notVerbShaped(verbs: Declared[]): string[] {
  return verbs
    .filter((v) => /^\(\{[^}]*\bctx\b/.test(v.params) && !/\}:\s*(?:Omit<)?(?:Plugin)?Verb\b/.test(v.params))
    .map((v) => `${v.name} (${v.file}): ${v.params.replace(/\s+/g, " ")}`);
}

const read = (dir: string) =>
  sourceFiles(join(ROOT, dir)).flatMap((f) => verbsOf(readFileSync(f, "utf8"), relative(ROOT, f)));

describe("verb outputs", () => {
  test("every model verb answers the type of one of the model's output schemas", () => {
    const verbs = read("packages/model/src");
    expect(verbs.length).toBeGreaterThan(60);
    expect(unschemed(verbs, new Map(Object.entries(model)))).toEqual([]);
  });

  test("every model verb taking a context declares its argument as Verb<I>", () => {
    const verbs = read("packages/model/src");
    expect(verbs.filter((v) => /\}:\s*Verb\b/.test(v.params)).length).toBeGreaterThan(50);
    expect(notVerbShaped(verbs)).toEqual([]);
  });

  test("every control verb answers the type of one of control's output schemas", async () => {
    const verbs = read("services/control/src/verbs");
    expect(verbs.length).toBeGreaterThan(35);
    expect(unschemed(verbs, await controlSchemas())).toEqual([]);
  });

  test("the check itself: a verb without an answer, or with a type no schema has, is named", () => {
    const source = [
      "export async function good({ ctx }: Verb): Promise<Element[]> {",
      "}",
      "export function inferred({ ctx, input }: { ctx: C; input: { id: string } }): Promise<z.infer<typeof Element>> {",
      "}",
      "export async function loose({ ctx }: Verb) {",
      "}",
      "export async function shaped({ ctx }: Verb): Promise<{ id: string }> {",
      "}",
      "export async function gone({ ctx, input }: Verb<{ id: string }>): Promise<void> {",
      "}",
      "export function helper(ctx: RequestContext): string {",
      "}",
      "export async function bare({ ctx }: { ctx: RequestContext }): Promise<Element[]> {",
      "}",
    ].join("\n");
    const verbs = verbsOf(source, "f.ts");
    expect(verbs.map((v) => v.name)).toEqual(["good", "inferred", "loose", "shaped", "gone", "bare"]);
    expect(unschemed(verbs, new Map([["Element", model.Element]]))).toEqual([
      "loose (f.ts): no declared answer",
      "shaped (f.ts): Promise<{ id: string }> is not the type of an output schema",
    ]);
    expect(notVerbShaped(verbs)).toEqual([
      "inferred (f.ts): ({ ctx, input }: { ctx: C; input: { id: string } })",
      "bare (f.ts): ({ ctx }: { ctx: RequestContext })",
    ]);
  });
});
