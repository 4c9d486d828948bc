// `pnpm validate <file.xml> [--rules rules.json] [--include rule,...] [--json]`: validates an Open Exchange file
// for CI. The file is parsed by the import's parser and loaded into an embedded in-memory PGlite database, where the
// same statements as POST /api/workspaces/:id/validate run (one implementation of the rules): the built-in rules and
// the rules of rules.json (a list of organization rules, or {"rules": [...]}, checked as the API checks them). The
// database starts from a migrated copy kept in node_modules/.cache/ams-validate (or $AMS_VALIDATE_CACHE), which the
// first run of a checkout makes: later runs do not migrate.
//
// Exit codes: 0 no errors (warnings and information may be listed), 1 the model has errors, 2 bad usage, an
// unreadable or malformed file, or bad rules.

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openMigratedMemoryDatabase, sql } from "@ams/db";
import {
  BUILTIN_RULE_IDS,
  checkRule,
  decodeXml,
  importModel,
  parseExchange,
  type RequestContext,
  type StoredRule,
  type ValidationIssue,
  type ValidationResult,
  ValidationRuleInput,
  validateWorkspace,
} from "@ams/model";
import { AppError } from "@ams/shared";

const USAGE = `usage: pnpm validate <file.xml> [--rules rules.json] [--include rule,...] [--exclude rule,...] [--json]
  --rules     organization rules to apply: a JSON list of {type, severity?, enabled?, ...} (or {"rules": [...]})
  --include   built-in rules that are off by default, e.g. documentation_missing
  --exclude   built-in rules not to run
  --json      print the result as JSON instead of a readable list
exit 0 no errors, 1 errors found, 2 bad usage or unreadable file
built-in rules: ${BUILTIN_RULE_IDS.join(", ")}`;

class Usage extends Error {}

function parseArgs(argv: string[]) {
  const out: { file?: string; rules?: string; include: string[]; exclude: string[]; json: boolean } = {
    include: [],
    exclude: [],
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Usage(`${a} needs a value`);
      return v;
    };
    if (a === "--json") out.json = true;
    else if (a === "--rules") out.rules = value();
    else if (a === "--include") out.include.push(...value().split(","));
    else if (a === "--exclude") out.exclude.push(...value().split(","));
    else if (a === "--help" || a === "-h") throw new Usage("");
    else if (a.startsWith("-")) throw new Usage(`unknown option ${a}`);
    else if (out.file) throw new Usage(`one file at a time (got ${out.file} and ${a})`);
    else out.file = a;
  }
  if (!out.file) throw new Usage("name the exchange file to validate");
  for (const id of [...out.include, ...out.exclude]) {
    if (!BUILTIN_RULE_IDS.includes(id)) throw new Usage(`unknown rule '${id}'`);
  }
  return out as typeof out & { file: string };
}

function readRules(path: string): StoredRule[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Usage(`${path}: ${(err as Error).message}`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { rules?: unknown })?.rules;
  if (!Array.isArray(list)) throw new Usage(`${path}: expected a list of rules or {"rules": [...]}`);
  return list.map((item, i) => {
    const parsed = ValidationRuleInput.safeParse(item);
    if (!parsed.success) {
      throw new Usage(`${path}: rule ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`)}`);
    }
    try {
      return { id: `${path}#${i + 1}`, ...checkRule(parsed.data) };
    } catch (err) {
      throw new Usage(`${path}: rule ${i + 1}: ${(err as Error).message}`);
    }
  });
}

const RULE_WIDTH = 30;
function printReadable(file: string, result: ValidationResult) {
  const { error, warning, info } = result.counts;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  for (const issue of result.issues) printIssue(issue);
  if (result.truncated) console.log(`... and ${result.counts.total - result.issues.length} more`);
  console.log(`${file}: ${plural(error, "error")}, ${plural(warning, "warning")}, ${info} information`);
}
function printIssue(i: ValidationIssue) {
  const where = i.object.view_id && i.object.kind !== "view" ? ` (view ${i.object.view_id})` : "";
  console.log(
    `${i.severity.padEnd(8)}${i.rule.padEnd(RULE_WIDTH)}${i.object.kind} ${i.object.id}${where}: ${i.message}`,
  );
  console.log(`${" ".repeat(8 + RULE_WIDTH)}fix: ${i.fix_hint}`);
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(args.file);
  } catch (err) {
    throw new Usage(`cannot read ${args.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const rules = args.rules ? readRules(args.rules) : [];
  const xml = decodeXml(bytes);
  try {
    parseExchange(xml);
  } catch (err) {
    if (err instanceof AppError && err.code === "VALIDATION") {
      const lines = (err.errors ?? [{ path: "(file)", message: err.message }]).map((e) => `  ${e.path}: ${e.message}`);
      throw new Usage(`${args.file} is not an Open Exchange model the import reads:\n${lines.join("\n")}`);
    }
    throw err;
  }
  const database = await openMigratedMemoryDatabase(
    process.env.AMS_VALIDATE_CACHE || fileURLToPath(new URL("../node_modules/.cache/ams-validate", import.meta.url)),
  );
  try {
    const org = randomUUID();
    await database.rows(sql`insert into organizations (id, slug, name) values (${org}, ${`cli-${org}`}, 'CLI')`);
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org}, 'CLI') returning id`,
    );
    const ctx: RequestContext = {
      database,
      userId: "cli",
      username: "cli",
      organizationId: org,
      workspaceId: ws?.id ?? null,
      role: "owner",
      platformAdmin: false,
    };
    await importModel({ ctx, input: { xml, fileName: args.file } });
    const result = await validateWorkspace(
      database,
      ctx.workspaceId as string,
      { include: args.include, exclude: args.exclude, limit: 100_000 },
      rules,
    );
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else printReadable(args.file, result);
    return result.counts.error > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof Usage)) throw err;
  if (err.message) console.error(`validate: ${err.message}`);
  console.error(USAGE);
  process.exitCode = 2;
}
