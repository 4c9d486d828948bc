import { AppError } from "@ams/shared";

/** Operators no explore plan may contain: writes, procedure calls, file loading. */
const FORBIDDEN =
  /Create|Merge|Delete|SetLabels|SetProperty|SetProperties|SetNodeProperty|SetRelationshipProperty|RemoveLabels|Foreach|LoadCSV|ProcedureCall|TransactionApply|TransactionForeach|Load/;
/** Operators that produce rows from the store rather than from their children. */
const LEAF = /Scan|Seek/;

export type PlanNode = {
  operatorType: string;
  arguments: Record<string, unknown>;
  identifiers: string[];
  children: PlanNode[];
};

/**
 * Defense in depth behind the rewrite: walks the EXPLAIN plan and refuses it when any store access can yield
 * something outside the workspace. A node scan or seek must be on the scope label itself, or sit under a Filter
 * that tests its variable for the scope label; a relationship scan must sit under a Filter that tests its
 * endpoints for it. Nodes reached by expanding from scoped nodes stay scoped: workspaces share no relationships.
 */
export function checkPlan(plan: PlanNode, scope: string): void {
  visit(plan, [], scope);
}

function visit(node: PlanNode, filters: string[], scope: string): void {
  const op = node.operatorType.replace(/@.*$/, "");
  const details = String(node.arguments.Details ?? node.arguments.details ?? "");
  if (FORBIDDEN.test(op)) reject(`the plan contains ${op}`);
  const below = op === "Filter" ? [...filters, details] : filters;
  if (LEAF.test(op)) checkLeaf(op, details, below, scope);
  if (/CountFromCountStore/.test(op) && !details.includes(`:${scope}`))
    reject(`the plan counts outside the workspace label (${op})`);
  for (const child of node.children) visit(child, below, scope);
}

function checkLeaf(op: string, details: string, filters: string[], scope: string): void {
  if (op === "AllNodesScan") reject("the plan scans all nodes");
  if (/AllRelationshipsScan/.test(op)) reject("the plan scans all relationships");
  const scoped = (v: string) =>
    filters.some(
      (f) => new RegExp(`(^|[^\\w\`])${escapeRegExp(v)}:${scope}\\b`).test(f) || f.includes(`${v}:${scope}`),
    );
  if (
    /^Node/.test(op) ||
    /NodesByLabels?Scan/.test(op) ||
    /^(Union|Intersection|Subtraction)NodeByLabelsScan$/.test(op)
  ) {
    // An index seek or scan names its index first ("RANGE INDEX a:Element(id) WHERE id = $id"); what follows reads
    // like a label scan's details. Only index operators get the prefix stripped, so a variable named RANGE stays one.
    const target = /Index/.test(op) ? details.replace(INDEX_PREFIX, "") : details;
    const variable = nodeVariable(target);
    if (!variable) reject(`the plan has an unrecognized ${op}`);
    const labels = target.slice(variable.length).match(/^:([^ ]+)/)?.[1] ?? "";
    const onScope = op !== "SubtractionNodeByLabelsScan" && !labels.includes("|") && labels.split("&").includes(scope);
    if (!onScope && !scoped(variable)) reject(`the plan reads ${variable} (${op}) outside the workspace label`);
    return;
  }
  if (/Relationship/.test(op)) {
    const m = /^\(([^)]*)\)<?-\[.*\]->?\(([^)]*)\)/.exec(details);
    const [, source, target] = m ?? reject(`the plan has an unrecognized ${op}`);
    const ends = [source ?? "", target ?? ""];
    const ok = ends.every((v) => filters.some((f) => f.includes(v) && f.includes(`:${scope}`)));
    if (!ok) reject(`the plan reads relationships (${op}) without checking the workspace label`);
    return;
  }
  reject(`the plan has an unexpected ${op}`);
}

/** The index kind in front of an index operator's details (Neo4j 5: "RANGE INDEX ", "TEXT INDEX ", "UNIQUE "...). */
const INDEX_PREFIX =
  /^(?:(?:RANGE|TEXT|POINT|FULLTEXT|VECTOR|LOOKUP)\s+INDEX|UNIQUE(?:\s+(?:RANGE|TEXT|POINT)\s+INDEX)?)\s+/;

/** "n:Label", "n WHERE ...", "`my var`:Label" -> the variable. */
function nodeVariable(details: string): string | undefined {
  if (details.startsWith("`")) {
    const end = details.indexOf("`", 1);
    return end > 0 ? details.slice(0, end + 1) : undefined;
  }
  return /^[\p{L}\p{N}_]+/u.exec(details)?.[0];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function reject(reason: string): never {
  throw new AppError("VALIDATION", `query: refused by the plan check: ${reason}`, {
    errors: [{ path: "query", message: `refused by the plan check: ${reason}` }],
  });
}
