import { sql } from "drizzle-orm";
import { escapeXml } from "../render/escape.ts";
import { inlineIconsOnly } from "../report/export-report.ts";
import { reportFile, viewSvg } from "../report/pages.ts";
import { indexReport, type ReportModel } from "../report/report-model.ts";
import { readModel } from "../store/read-document.ts";
import type { ResolvedShareLink } from "./verbs.ts";

export type SharedFile = { type: string; body: string; csp: string };

/**
 * The reports share links read, per workspace and revision: a link shows the CURRENT model (a share link is a live
 * window, as draw.io's and Lucid's are; the downloaded report is the snapshot), and the pages of one revision are
 * built from one read of it. A few workspaces are kept; a new revision replaces its workspace's entry.
 */
const cache = new Map<string, { revision: number; rm: ReportModel }>();
const CACHED_WORKSPACES = 4;

async function currentReport(link: ResolvedShareLink): Promise<ReportModel> {
  const { ctx } = link;
  const ws = ctx.workspaceId ?? "";
  return ctx.database.db.transaction(
    async (tx) => {
      const [row] = await ctx.database.rows<{ revision: string | number }>(
        sql`select revision from workspaces where id = ${ws}`,
        tx,
      );
      const revision = Number(row?.revision ?? 0);
      const hit = cache.get(ws);
      if (hit && hit.revision === revision) return hit.rm;
      const rm = indexReport(await readModel(ctx.database, ws, tx), inlineIconsOnly(ctx.resolveIcon));
      cache.delete(ws);
      cache.set(ws, { revision, rm });
      while (cache.size > CACHED_WORKSPACES) cache.delete(cache.keys().next().value ?? "");
      return rm;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** The CSP of a shared page: nothing from elsewhere, scripts of the report only, embeddable where the link says. */
function cspOf(frameAncestors: string, framedBySelf: boolean): string {
  const ancestors =
    framedBySelf && frameAncestors === "'none'"
      ? "'self'"
      : framedBySelf && !frameAncestors.includes("'self'")
        ? `'self' ${frameAncestors}`
        : frameAncestors;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

const VIEW_STYLE =
  "body{margin:0;font-family:system-ui,sans-serif;color:#1f2328}main{padding:1rem}h1{font-size:1.2rem;margin:0 0 .75rem}" +
  ".diagram{overflow:auto}.diagram svg{display:block;max-width:100%;height:auto}";

/**
 * A file of what a link shares, by its path under /s/<token>/ ("" for the link itself), or null (404). A view link
 * has its page and its SVG (view.svg); a report link has the report's files. Nothing else of the workspace is
 * reachable: the view link's picture has no links, and the report is what the download holds.
 */
export async function sharedFile(link: ResolvedShareLink, path: string): Promise<SharedFile | null> {
  const rm = await currentReport(link);
  if (link.scope === "view") {
    const id = link.viewId ?? "";
    const view = rm.views.get(id);
    const svg = view ? viewSvg(rm, id, false) : null;
    if (!view || svg === null) return null;
    const csp = cspOf(link.frameAncestors, false);
    if (path === "view.svg") {
      return {
        type: "image/svg+xml; charset=utf-8",
        body: svg.replace(' role="img"', ' xmlns="http://www.w3.org/2000/svg"'),
        csp,
      };
    }
    if (path !== "") return null;
    const name = escapeXml(view.name?.trim() ? view.name : "(unnamed view)");
    const body =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${name}</title><style>${VIEW_STYLE}</style></head><body><main><h1>${name}</h1>` +
      `<div class="diagram">${svg}</div></main></body></html>`;
    return { type: "text/html; charset=utf-8", body, csp };
  }
  const file = reportFile(rm, path === "" ? "index.html" : path);
  if (!file) return null;
  // The report's pages show in its own frame (index.html): they may be framed by it as well as where the link says.
  return { ...file, csp: cspOf(link.frameAncestors, path !== "" && path !== "index.html") };
}
