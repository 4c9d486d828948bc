import { sql } from "drizzle-orm";
import { z } from "zod";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { ExchangeWriter, referencedByFolders, serializeExchange } from "../exchange/serialize.ts";
import { documentAtVersion } from "../history/model-at.ts";
import { readModel } from "../store/read-document.ts";
import { elementPieces, readModelHead, readModelRest, relationshipPieces } from "../store/read-pieces.ts";

export const ExportQuery = z.strictObject({
  version: z.string().max(100).optional().describe("A version's id: the model as it was at that version"),
});
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The model of the active workspace (with `version`, as it was then), read in one snapshot. */
export async function exportDocument(ctx: RequestContext, input?: ExportQuery) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  if (input?.version) return documentAtVersion(ctx, ws, input.version);
  const doc = await ctx.database.db.transaction((tx) => readModel(ctx.database, ws, tx), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
  return { doc, version: null };
}

/** The active workspace (or one of its versions) as an Open Exchange XML document, with a file name for downloads. */
export async function exportModel({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ xml: string; fileName: string }> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  if (input?.version) {
    const { doc, version } = await documentAtVersion(ctx, ws, input.version);
    return { xml: serializeExchange(doc), fileName: xmlFileName(doc.model.name, version) };
  }
  const parts: string[] = [];
  let fileName = "";
  await writeCurrentModel(
    ctx,
    ws,
    (name) => {
      fileName = xmlFileName(name, null);
    },
    async (text) => {
      parts.push(text);
    },
  );
  return { xml: parts.join(""), fileName };
}

/**
 * exportModel's document as a stream of its UTF-8 bytes (GET /api/export): the current model is read in pieces and
 * each piece written out as it is read, so neither the model nor the document is held whole while the client keeps
 * up (a past version is rebuilt whole from the change log, then streamed). The reads never wait for the client: their
 * snapshot's transaction ends as soon as the model is read, as before (a pooled connection, or PGlite's only one, is
 * not held for a slow download), and what a slow client has not taken yet waits in memory as bytes. A client that
 * goes away stops the reads. A refusal or a failure before the first piece is an error answer; one after it cuts
 * the stream.
 */
export async function exportModelStream({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  if (input?.version) {
    const { xml, fileName } = await exportModel({ ctx, input });
    return { fileName, body: new Blob([xml]).stream() };
  }
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      cancelled = true;
    },
  });
  let named: (fileName: string) => void = () => {};
  const fileName = new Promise<string>((resolve) => {
    named = resolve;
  });
  const written = writeCurrentModel(
    ctx,
    ws,
    (name) => named(xmlFileName(name, null)),
    async (text) => {
      if (cancelled) throw new ExportCancelled();
      controller.enqueue(encoder.encode(text));
    },
  );
  written.then(
    () => {
      if (!cancelled) controller.close();
    },
    (err) => {
      if (!cancelled) controller.error(err);
    },
  );
  // A failure before the name is known (the first read) rejects here: an error answer, not a cut stream.
  return { fileName: await Promise.race([fileName, written.then(() => fileName)]), body };
}

class ExportCancelled extends Error {
  constructor() {
    super("the export's reader went away");
  }
}

/**
 * Reads the current model in one repeatable-read snapshot, in pieces, and writes it as it reads: `named` gets the
 * model's name once it is read (before the first piece), `emit` each written piece in order (its promise holds the
 * reads back).
 */
async function writeCurrentModel(
  ctx: RequestContext,
  ws: string,
  named: (modelName: string | undefined) => void,
  emit: (text: string) => Promise<void>,
): Promise<void> {
  const database = ctx.database;
  await database.db.transaction(
    async (tx) => {
      const head = await readModelHead(database, ws, tx);
      named(head.model.name);
      const w = new ExchangeWriter();
      w.header(head.model, head.props.get("model\u0000"));
      // Folder references to nothing are dropped: the ids they name are looked for as the lists go by.
      const missing = referencedByFolders(head.folders, head.model);
      for await (const piece of elementPieces(database, ws, tx, head)) {
        w.elements(piece.rows, piece.props);
        if (missing.size > 0) for (const row of piece.rows) missing.delete(row.id);
        await emit(w.take());
      }
      for await (const piece of relationshipPieces(database, ws, tx, head)) {
        w.relationships(piece.rows, piece.props);
        if (missing.size > 0) for (const row of piece.rows) missing.delete(row.id);
        await emit(w.take());
      }
      const rest = await readModelRest(database, ws, tx);
      for (const rows of [rest.views, head.propertyDefinitions, rest.nodes, rest.connections]) {
        if (missing.size === 0) break;
        for (const row of rows) missing.delete(row.id);
      }
      w.organizations(head.folders, missing);
      w.propertyDefinitions(head.propertyDefinitions);
      w.views(rest.views, rest.nodes, rest.connections, head.props);
      w.end();
      await emit(w.take());
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

const xmlFileName = (modelName: string | undefined, version: { name: string } | null) =>
  `${fileNameOf(`${modelName ?? "model"}${version ? ` (${version.name})` : ""}`)}.xml`;

/** A name safe for Content-Disposition and ZIP entries on every platform. */
export function fileNameOf(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[^\w .()-]+/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
  return cleaned || "model";
}

export async function workspaceName(ctx: RequestContext, ws: string) {
  const [row] = await ctx.database.rows<{ name: string }>(sql`select name from workspaces where id = ${ws}`);
  return row?.name ?? "model";
}
