import type { FolderRow } from "../exchange/document.ts";
import { escapeXml } from "../render/escape.ts";
import { renderViewSvg } from "../render/render-view.ts";
import { REPORT_CSS, REPORT_JS, REPORT_PAGE_JS } from "./assets.ts";
import {
  fileOf,
  type ReportDetail,
  type ReportIndex,
  type ReportKind,
  type ReportModel,
  type ReportRelationship,
  type ReportView,
  viewInputOf,
} from "./report-model.ts";

/** Whether escapeXml would change the text (markup characters, controls, surrogates, U+FFFE/U+FFFF): most have none. */
function needsEscape(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (
      c < 0x20 ||
      c === 38 ||
      c === 60 ||
      c === 62 ||
      c === 34 ||
      c === 39 ||
      (c >= 0xd800 && c <= 0xdfff) ||
      c >= 0xfffe
    )
      return true;
  }
  return false;
}

/** User text as HTML character data or an attribute value (markup characters escaped, unsafe characters dropped). */
const h = (text: string | null | undefined) => {
  const value = text ?? "";
  return needsEscape(value) ? escapeXml(value) : value;
};

/** Relative path of a concept's page from another concept's page (both one folder down). */
const pageOf = (kind: ReportKind, id: string) => `../${kind}/${fileOf(id)}.html`;

const SVG_NS_ATTR = ' xmlns="http://www.w3.org/2000/svg"';

function shell(opts: { title: string; depth: 0 | 1; route?: string; body: string }): string {
  const up = opts.depth === 1 ? "../" : "";
  const route = opts.route ? ` data-route="${h(opts.route)}"` : "";
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${h(opts.title)}</title><link rel="stylesheet" href="${up}report.css"></head>` +
    `<body class="page"${route}><main>${opts.body}</main><script src="${up}report-page.js"></script></body></html>`
  );
}

function nameOf(name: string | null | undefined, fallback: string): string {
  return name?.trim() ? name : fallback;
}

function documentation(text: string | null | undefined): string {
  if (!text?.trim()) return "";
  return `<section><h2>Documentation</h2><div class="doc">${h(text)}</div></section>`;
}

function propertiesTable(rm: ReportModel, key: string): string {
  const props = rm.properties.get(key);
  if (!props?.length) return "";
  const rows = props.map((p) => `<tr><th scope="row">${h(p.name)}</th><td>${h(p.value)}</td></tr>`).join("");
  return `<section><h2>Properties</h2><table><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function conceptLink(rm: ReportIndex, id: string): string {
  const e = rm.elements.get(id);
  if (e)
    return `<a href="${pageOf("elements", id)}">${h(nameOf(e.name, e.type))}</a> <span class="type">${h(e.type)}</span>`;
  const r = rm.relationships.get(id);
  if (r)
    return `<a href="${pageOf("relationships", id)}">${h(nameOf(r.name, r.type))}</a> <span class="type">${h(r.type)}</span>`;
  return `<span class="missing">${h(id)}</span>`;
}

function relationshipRows(rm: ReportIndex, list: ReportRelationship[] | undefined, end: "sourceId" | "targetId") {
  if (!list?.length) return "<p>None.</p>";
  const rows = list
    .map(
      (r) =>
        `<tr><td><a href="${pageOf("relationships", r.id)}">${h(nameOf(r.name, r.type))}</a></td><td>${h(r.type)}</td><td>${conceptLink(rm, r[end])}</td></tr>`,
    )
    .join("");
  const other = end === "targetId" ? "Target" : "Source";
  return `<table><thead><tr><th scope="col">Relationship</th><th scope="col">Type</th><th scope="col">${other}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function viewList(views: ReportView[] | undefined): string {
  if (!views?.length) return "<p>In no view.</p>";
  return `<ul>${views.map((v) => `<li><a href="${pageOf("views", v.id)}">${h(nameOf(v.name, "(unnamed view)"))}</a></li>`).join("")}</ul>`;
}

export function elementPage(rm: ReportModel, id: string): string | null {
  const e = rm.elements.get(id);
  if (!e) return null;
  const name = nameOf(e.name, "(unnamed)");
  const body =
    `<p class="kind">${h(e.type)}</p><h1>${h(name)}</h1>` +
    documentation(rm.documentation.get(`element:${id}`)) +
    propertiesTable(rm, `element:${id}`) +
    `<section><h2>Relationships</h2><h3>Outgoing</h3>${relationshipRows(rm, rm.outgoing.get(id), "targetId")}` +
    `<h3>Incoming</h3>${relationshipRows(rm, rm.incoming.get(id), "sourceId")}</section>` +
    `<section><h2>Appears in views</h2>${viewList(rm.appearsIn.get(id))}</section>`;
  return shell({ title: name, depth: 1, route: `#/elements/${encodeURIComponent(id)}`, body });
}

export function relationshipPage(rm: ReportModel, id: string): string | null {
  const r = rm.relationships.get(id);
  if (!r) return null;
  const name = nameOf(r.name, r.type);
  const body =
    `<p class="kind">${h(r.type)}</p><h1>${h(name)}</h1>` +
    `<dl><dt>Source</dt><dd>${conceptLink(rm, r.sourceId)}</dd><dt>Target</dt><dd>${conceptLink(rm, r.targetId)}</dd></dl>` +
    documentation(rm.documentation.get(`relationship:${id}`)) +
    propertiesTable(rm, `relationship:${id}`) +
    `<section><h2>Appears in views</h2>${viewList(rm.appearsIn.get(id))}</section>`;
  return shell({ title: name, depth: 1, route: `#/relationships/${encodeURIComponent(id)}`, body });
}

/** The view's SVG for an HTML page: its elements and relationships link to their pages (`link` false: no links). */
export function viewSvg(rm: ReportModel, id: string, link = true): string | null {
  const input = viewInputOf(rm, id);
  if (!input) return null;
  const svg = renderViewSvg(input, {
    resolveIcon: rm.resolveIcon,
    href: link
      ? (drawn) => {
          const concept = rm.conceptOf.get(`${id}\u0000${drawn}`);
          if (!concept) return undefined;
          if (rm.elements.has(concept)) return pageOf("elements", concept);
          if (rm.relationships.has(concept)) return pageOf("relationships", concept);
          return rm.views.has(concept) ? pageOf("views", concept) : undefined;
        }
      : undefined,
  });
  // Inline in HTML the parser gives <svg> its namespace: the page then names no URL at all.
  return svg.replace(SVG_NS_ATTR, ' role="img"');
}

export function viewPage(rm: ReportModel, id: string): string | null {
  const v = rm.views.get(id);
  const svg = v ? viewSvg(rm, id) : null;
  if (!v || svg === null) return null;
  const name = nameOf(v.name, "(unnamed view)");
  const inView = new Set<string>();
  for (const n of rm.nodesOf.get(id) ?? []) if (n.elementId && rm.elements.has(n.elementId)) inView.add(n.elementId);
  const list = [...inView].map((e) => `<li>${conceptLink(rm, e)}</li>`).join("");
  const body =
    `<p class="kind">View${v.viewpoint ? ` · ${h(v.viewpoint)}` : ""}</p><h1>${h(name)}</h1>` +
    documentation(rm.documentation.get(`view:${id}`)) +
    `<div class="diagram">${svg}</div>` +
    propertiesTable(rm, `view:${id}`) +
    `<section><h2>Elements in this view</h2>${list ? `<ul>${list}</ul>` : "<p>None.</p>"}</section>`;
  return shell({ title: name, depth: 1, route: `#/views/${encodeURIComponent(id)}`, body });
}

/** The model's own page: the first one the report shows. */
export function modelPage(rm: ReportModel): string {
  const views = [...rm.views.values()];
  const body =
    `<p class="kind">Model</p><h1>${h(rm.name)}</h1>` +
    documentation(rm.model.documentation) +
    // The model's own properties: owner kind "model", no owner id (as the import and the API store them).
    propertiesTable(rm, "model:") +
    `<section><h2>Contents</h2><p>${rm.elements.size} elements, ${rm.relationships.size} relationships, ${views.length} views.</p></section>` +
    `<section><h2>Views</h2>${viewList(views).replaceAll("../views/", "views/")}</section>`;
  return shell({ title: rm.name, depth: 0, body });
}

type TreeItem = { label: string; kind: ReportKind; id: string; type: string };

function leafOf(rm: ReportIndex, id: string): TreeItem | null {
  const e = rm.elements.get(id);
  if (e) return { label: nameOf(e.name, "(unnamed)"), kind: "elements", id, type: e.type };
  const r = rm.relationships.get(id);
  if (r) return { label: nameOf(r.name, r.type), kind: "relationships", id, type: r.type };
  const v = rm.views.get(id);
  if (v) return { label: nameOf(v.name, "(unnamed view)"), kind: "views", id, type: "View" };
  return null;
}

const leafHtml = (t: TreeItem) =>
  `<li><a href="#/${t.kind}/${h(encodeURIComponent(t.id))}" data-type="${h(t.type)}">${h(t.label)}</a></li>`;

/** The model tree: the model's folders as they are, then what no folder holds, by kind. */
function treeHtml(rm: ReportIndex): string {
  const children = new Map<number | null, FolderRow[]>();
  for (const f of rm.folders) {
    const key = f.parentId ?? null;
    const list = children.get(key);
    if (list) list.push(f);
    else children.set(key, [f]);
  }
  for (const list of children.values()) list.sort((a, b) => a.ord - b.ord);
  const placed = new Set<string>();
  const visited = new Set<number>();
  const out: string[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const f of children.get(parent) ?? []) {
      if (visited.has(f.id)) continue;
      visited.add(f.id);
      if (f.refId) {
        const leaf = leafOf(rm, f.refId);
        if (leaf && !placed.has(leaf.id)) {
          placed.add(leaf.id);
          out.push(leafHtml(leaf));
        }
        continue;
      }
      out.push(`<li><details${depth === 0 ? " open" : ""}><summary>${h(nameOf(f.label, "Folder"))}</summary><ul>`);
      walk(f.id, depth + 1);
      out.push("</ul></details></li>");
    }
  };
  walk(null, 0);
  const rest = (label: string, items: TreeItem[]) => {
    if (items.length === 0) return;
    out.push(`<li><details open><summary>${label}</summary><ul>`);
    for (const t of items) out.push(leafHtml(t));
    out.push("</ul></details></li>");
  };
  const unplaced = <T extends { id: string }>(list: Iterable<T>) => [...list].filter((x) => !placed.has(x.id));
  rest(
    "Elements",
    unplaced(rm.elements.values()).map((e) => ({
      label: nameOf(e.name, "(unnamed)"),
      kind: "elements",
      id: e.id,
      type: e.type,
    })),
  );
  rest(
    "Relationships",
    unplaced(rm.relationships.values()).map((r) => ({
      label: nameOf(r.name, r.type),
      kind: "relationships",
      id: r.id,
      type: r.type,
    })),
  );
  rest(
    "Views",
    unplaced(rm.views.values()).map((v) => ({
      label: nameOf(v.name, "(unnamed view)"),
      kind: "views",
      id: v.id,
      type: "View",
    })),
  );
  return `<ul class="tree">${out.join("")}</ul>`;
}

/** The report's frame: the model tree and the search beside the content frame that shows one page at a time. */
export function indexPage(rm: ReportIndex): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${h(rm.name)}</title><link rel="stylesheet" href="report.css"></head><body class="report">` +
    `<header><p class="brand">Model report</p><h1>${h(rm.name)}</h1></header>` +
    `<div class="layout"><nav aria-label="Model tree"><div role="search"><label for="search">Search</label>` +
    `<input id="search" type="search" autocomplete="off"></div><ul id="results" aria-label="Search results" hidden></ul>` +
    `${treeHtml(rm)}</nav><main><iframe id="content" name="content" title="Page" src="model.html"></iframe></main></div>` +
    `<script src="search-index.js"></script><script src="report.js"></script></body></html>`
  );
}

/** The search index as a script (a page opened from file:// may not fetch a JSON file): id, kind, name, type. */
export function searchIndexJs(rm: ReportIndex): string {
  const items: [string, string, string, string][] = [];
  for (const e of rm.elements.values()) items.push([e.id, "elements", nameOf(e.name, "(unnamed)"), e.type]);
  for (const r of rm.relationships.values()) items.push([r.id, "relationships", nameOf(r.name, r.type), r.type]);
  for (const v of rm.views.values()) items.push([v.id, "views", nameOf(v.name, "(unnamed view)"), "View"]);
  // JSON in a script: "<" written as \u003c so no name can close the script or open a comment.
  return `window.REPORT_INDEX=${JSON.stringify(items)
    .replace(/</g, "\\u003c")
    .replace(/\u2028|\u2029/g, "")};\n`;
}

/** The file at `path` of the report ("index.html", "elements/<file>.html", ...), or null when there is none. */
export function reportFile(rm: ReportModel, path: string): { type: string; body: string } | null {
  const html = (body: string | null) => (body === null ? null : { type: "text/html; charset=utf-8", body });
  switch (path) {
    case "index.html":
      return html(indexPage(rm));
    case "model.html":
      return html(modelPage(rm));
    case "report.css":
      return { type: "text/css; charset=utf-8", body: REPORT_CSS };
    case "report.js":
      return { type: "text/javascript; charset=utf-8", body: REPORT_JS };
    case "report-page.js":
      return { type: "text/javascript; charset=utf-8", body: REPORT_PAGE_JS };
    case "search-index.js":
      return { type: "text/javascript; charset=utf-8", body: searchIndexJs(rm) };
  }
  const m = /^(elements|relationships|views)\/([A-Za-z0-9_-]+)\.html$/.exec(path);
  if (!m) return null;
  const id = idOfFile(m[2] ?? "");
  if (id === null) return null;
  if (m[1] === "elements") return html(elementPage(rm, id));
  if (m[1] === "relationships") return html(relationshipPage(rm, id));
  return html(viewPage(rm, id));
}

/** The id a file name stands for (fileOf's inverse), null when the name is not one fileOf writes. */
function idOfFile(file: string): string | null {
  const id = file.replace(/_([0-9a-f]{1,4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return fileOf(id) === file ? id : null;
}

/** The pages a ReportDetail is asked for at once: the model's own (its properties), or some views, elements or relationships. */
export type ReportChunk = { kind: "model" } | { kind: ReportKind; ids: string[] };

/** How many pages of each kind share one read of their detail (a view's detail is its whole diagram). */
export const CHUNK_SIZE: Record<ReportKind, number> = { views: 25, elements: 1000, relationships: 2000 };

/**
 * Every file of the report, one at a time (the ZIP asks for the next when it has written the last), in the model's
 * order. `detailOf` answers the detail of each chunk of pages: from a whole document the same detail every time,
 * streamed a read per chunk, so memory holds the index and one chunk's detail.
 */
export async function* reportEntries(
  index: ReportIndex,
  detailOf: (chunk: ReportChunk) => ReportDetail | Promise<ReportDetail>,
  chunkSize: Record<ReportKind, number> = CHUNK_SIZE,
): AsyncGenerator<{ name: string; body: string }> {
  const rm: ReportModel = { ...index, ...(await detailOf({ kind: "model" })) };
  for (const name of ["index.html", "model.html", "report.css", "report.js", "report-page.js", "search-index.js"]) {
    const file = reportFile(rm, name);
    if (file) yield { name, body: file.body };
  }
  const pages: [ReportKind, Iterable<string>, (rm: ReportModel, id: string) => string | null][] = [
    ["views", index.views.keys(), viewPage],
    ["elements", index.elements.keys(), elementPage],
    ["relationships", index.relationships.keys(), relationshipPage],
  ];
  for (const [kind, ids, page] of pages) {
    for (const chunk of chunksOf(ids, chunkSize[kind])) {
      const rm: ReportModel = { ...index, ...(await detailOf({ kind, ids: chunk })) };
      for (const id of chunk) {
        const body = page(rm, id);
        if (body) yield { name: `${kind}/${fileOf(id)}.html`, body };
      }
    }
  }
}

function* chunksOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
