/** Plain words for drafts: who started one and how, its state, its counts. */
import type { Draft } from "../api/drafts.ts";
import { createStore } from "../app/store.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const changesWords = (n: number) => plural(n, "change");
export const conflictsWords = (n: number) => plural(n, "conflict");

/** An assistant's draft (its author came in over MCP): "Claude proposed 14 changes"; a person's: "Ana Lima". */
export function authorWords(d: Pick<Draft, "author" | "changes">): string {
  if (d.author.via.kind === "mcp") {
    const assistant = d.author.via.name || "An assistant";
    const forWhom = d.author.name ? ` (for ${d.author.name})` : "";
    return `${assistant}${forWhom} proposed ${changesWords(d.changes)}`;
  }
  return `${d.author.name ?? "A former member"} started it`;
}

export const STATE_WORDS: Record<Draft["state"], string> = {
  open: "open",
  submitted: "ready for review",
  merged: "merged",
  discarded: "discarded",
  closed: "closed",
};

export const approvalsWords = (d: Pick<Draft, "approvals" | "approvals_required">) =>
  d.approvals_required > 0
    ? `${d.approvals}/${d.approvals_required} approvals`
    : `${plural(d.approvals, "approval")} (none required)`;

/** What the UI knows of workspaces that are drafts (their base and state), for the workspace links and the modeler. */
export type DraftMark = { base_workspace_id: string | null; base_name: string; state: Draft["state"] | string };
export const draftMarks = createStore<Record<string, DraftMark | null>>({});
export const markDraft = (workspaceId: string, mark: DraftMark | null) =>
  draftMarks.set((m) => ({ ...m, [workspaceId]: mark }));

/** A workspace that is a draft no longer takes changes once merged, discarded or closed. */
export const closedDraft = (mark: DraftMark | null | undefined) =>
  !!mark && mark.state !== "open" && mark.state !== "submitted";
