import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

/**
 * resvg 2.6 aborts the whole process (a Rust panic, not an error) when a layer of a document lies far outside its
 * canvas, and a nested viewport is such a layer: a plugin icon (an icon pack's SVG, drawn inline as a nested `<svg>`
 * or as an SVG image) whose content lies far outside its own viewBox is enough. One such icon in an icon pack would
 * take the service down on every PNG of a view that shows it. So before a PNG shows a plugin icon for the first time,
 * the icon is drawn alone in a child process, on a canvas as small as its own box (a view's canvas is larger, which
 * only widens what resvg accepts); an icon that brings the child down is left out of every PNG (its node keeps its
 * frame, type icon and label) and the log says which. Verdicts are kept per process, by the icon's markup.
 */

const CHILD = fileURLToPath(new URL("./icon-check-child.ts", import.meta.url));
const verdicts = new Map<string, boolean>();

/**
 * An inline plugin icon (our renderer's `<svg class="icon" …>…</svg>`) or an SVG image icon, where the view places
 * it, with the document that checks it (the icon alone, moved to the origin of a canvas the size of its box, so that
 * every placement of one icon at one size shares a verdict) and that document's hash.
 */
type Found = { start: number; end: number; markup: string; doc: string; key: string };

const ICON_START = /<(svg|image) class="icon" x="(-?[\d.e+-]+)" y="(-?[\d.e+-]+)" width="([\d.e+-]+)"/g;

/** Every plugin icon a document of ours places: inline ones (balanced up to their `</svg>`) and SVG images. */
function icons(svg: string): Found[] {
  const found: Found[] = [];
  for (const m of svg.matchAll(ICON_START)) {
    const start = m.index ?? 0;
    const size = m[4] ?? "0";
    const place = (end: number) => {
      const markup = svg.slice(start, end);
      const doc =
        `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
        `${markup.replace(` x="${m[2]}" y="${m[3]}"`, ' x="0" y="0"')}</svg>`;
      found.push({ start, end, markup, doc, key: createHash("sha256").update(doc).digest("base64url") });
    };
    if (m[1] === "image") {
      const end = svg.indexOf(">", start) + 1;
      if (svg.slice(start, end).includes('href="data:image/svg+xml')) place(end);
      continue;
    }
    // Balanced: nested <svg> elements inside the icon open and close within it (self-closing ones do neither).
    const tag = /<svg\b[^>]*?(\/?)>|<\/svg>/g;
    tag.lastIndex = start;
    let depth = 0;
    let end = -1;
    for (let t = tag.exec(svg); t; t = tag.exec(svg)) {
      if (t[0] === "</svg>") depth--;
      else if (t[1] !== "/") depth++;
      if (depth === 0) {
        end = t.index + t[0].length;
        break;
      }
    }
    if (end > start) place(end);
  }
  return found;
}

/**
 * `svg` without the plugin icons resvg cannot draw safely (checked once per icon per process), and whether any was
 * left out. A document without plugin icons is answered as it is, at once.
 */
export async function withoutUnsafeIcons(
  svg: string,
  log?: (message: string) => void,
): Promise<{ svg: string; removed: number }> {
  if (!svg.includes('class="icon" x=')) return { svg, removed: 0 };
  const found = icons(svg);
  if (found.length === 0) return { svg, removed: 0 };
  const unknown = new Map<string, Found>();
  for (const icon of found) if (!verdicts.has(icon.key)) unknown.set(icon.key, icon);
  if (unknown.size > 0) {
    const checked = await check([...unknown.values()].map((icon) => icon.doc));
    for (const [i, key] of [...unknown.keys()].entries()) {
      const safe = checked[i] ?? false;
      verdicts.set(key, safe);
      if (!safe) {
        log?.(
          `a plugin icon is left out of PNG pictures: resvg cannot draw it without aborting (its content lies far outside its viewBox): ${unknown.get(key)?.markup.slice(0, 200)}`,
        );
      }
    }
  }
  let out = "";
  let at = 0;
  let removed = 0;
  for (const icon of found) {
    if (verdicts.get(icon.key) !== false) continue;
    out += svg.slice(at, icon.start);
    at = icon.end;
    removed++;
  }
  return removed === 0 ? { svg, removed } : { svg: out + svg.slice(at), removed };
}

/**
 * Draws each document in a child process, one after the other; the document that brings the child down is unsafe,
 * and a new child goes on with the ones after it. Answers whether each is safe, in order; a checker that cannot run
 * at all leaves the rest unsafe (left out of the picture rather than risked).
 */
async function check(docs: string[]): Promise<boolean[]> {
  const safe: boolean[] = docs.map(() => false);
  for (let from = 0; from < docs.length; ) {
    const { done, failed } = await runChild(docs, from);
    for (const i of done) safe[i] = true;
    if (failed === undefined) break;
    from = failed + 1;
  }
  return safe;
}

/** One child over docs[from..]: the ones it drew, and the one it died drawing (undefined when it did not die so). */
function runChild(docs: string[], from: number): Promise<{ done: Set<number>; failed: number | undefined }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHILD], { stdio: ["pipe", "pipe", "ignore"] });
    const done = new Set<number>();
    let started: number | undefined;
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const [word, n] = buffer.slice(0, nl).split(" ");
        buffer = buffer.slice(nl + 1);
        if (word === "start") started = Number(n);
        if (word === "ok") done.add(Number(n));
      }
    });
    child.on("error", () => resolve({ done, failed: undefined }));
    child.on("close", () =>
      resolve({ done, failed: started !== undefined && !done.has(started) ? started : undefined }),
    );
    child.stdin.on("error", () => {});
    for (let i = from; i < docs.length; i++) child.stdin.write(`${JSON.stringify({ i, svg: docs[i] })}\n`);
    child.stdin.end();
  });
}

/** Forgets every verdict (tests). */
export function forgetIconVerdicts(): void {
  verdicts.clear();
}
