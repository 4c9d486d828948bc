/** Plain words for history: who, when, which way in, and a field's value before or after. */
import type { ChangeGroupHeader, ViaKind } from "../api/history.ts";

export const VIA_WORDS: Record<ViaKind, string> = {
  browser: "browser",
  api_token: "API token",
  mcp: "MCP",
  import: "import",
  system: "system",
};

export function whoWords(h: ChangeGroupHeader): string {
  return h.actor.id ? (h.actor.name ?? "a former member") : "the system";
}

export function viaWords(h: ChangeGroupHeader): string {
  const base = VIA_WORDS[h.via.kind] ?? h.via.kind;
  return h.via.name ? `${base} (${h.via.name})` : base;
}

export function whenWords(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A field value as a short text: nothing is an em dash, objects are compact JSON. */
export function valueWords(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (typeof v === "string") return v.length > 120 ? `${v.slice(0, 117)}…` : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const json = JSON.stringify(v);
  return json.length > 120 ? `${json.slice(0, 117)}…` : json;
}

/** "properties.Owner" reads as "Owner (property)"; snake_case fields read as words. */
export function fieldWords(field: string): string {
  if (field.startsWith("properties.")) return `${field.slice("properties.".length)} (property)`;
  return field.replace(/_/g, " ");
}
