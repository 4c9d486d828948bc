import { Readable } from "node:stream";
import type { Database, DbOrTx } from "@ams/db";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { IconResolver } from "../render/types.ts";
import { type ExportQuery, exportDocument, fileNameOf } from "../transfer/export-model.ts";
import { reportEntries } from "./pages.ts";
import { readReport } from "./read-report.ts";
import { indexReport } from "./report-model.ts";
import { zipEntries } from "./zip-writer.ts";

/** Icons the report may show: inline SVG only; an icon the viewer would fetch from somewhere is not offline. */
export function inlineIconsOnly(resolve: IconResolver | undefined): IconResolver | undefined {
  if (!resolve) return undefined;
  return (value) => {
    const icon = resolve(value);
    return icon && "svg" in icon ? icon : undefined;
  };
}

/** A streamed report whose client takes nothing for this long is ended (its snapshot holds a connection). */
const STALLED_AFTER_MS = 2 * 60_000;

/**
 * The model (with `version`, as it was then) as a static HTML report in a ZIP: index.html with the model tree and a
 * search, a page per view (its SVG, elements clickable), element and relationship. Each page is built and compressed
 * only when the client has taken the one before.
 *
 * The current model on PostgreSQL is read in pieces, in one read-only snapshot held while the ZIP is written: its
 * index first (names, relationships' ends, which views show what; a refusal or a failure there is an error, not a
 * broken download), then the documentation, properties and diagrams of each chunk of pages, so memory holds the
 * index and one chunk, never the whole model. A version (rebuilt from the change log) and the embedded database (one
 * connection, which a held snapshot would take from every other request) are read whole first, as the XML export is.
 */
export async function exportReport({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const resolveIcon = inlineIconsOnly(ctx.resolveIcon);
  if (input?.version || ctx.database.kind !== "postgres") {
    const { doc, version } = await exportDocument(ctx, input);
    const rm = indexReport(doc, resolveIcon);
    const name = `${doc.model.name ?? "model"}${version ? ` (${version.name})` : ""}`;
    const body = Readable.toWeb(Readable.from(zipEntries(reportEntries(rm, () => rm)))) as ReadableStream<Uint8Array>;
    return { fileName: `${fileNameOf(name)} report.zip`, body };
  }
  const snapshot = await openSnapshot(ctx.database);
  let reader: Awaited<ReturnType<typeof readReport>>;
  try {
    reader = await readReport(ctx.database, ws, snapshot.tx, resolveIcon);
  } catch (error) {
    snapshot.release(error);
    throw error;
  }
  let pulled = Date.now();
  async function* written() {
    let failure: unknown;
    try {
      for await (const bytes of zipEntries(reportEntries(reader.index, reader.detailOf))) {
        yield bytes;
        pulled = Date.now();
      }
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      snapshot.release(failure);
    }
  }
  // Readable.from reads the generator only as fast as the client takes the bytes: one chunk of pages in memory.
  const stream = Readable.from(written());
  const watch = setInterval(() => {
    if (Date.now() - pulled > STALLED_AFTER_MS) stream.destroy(new Error("The client stopped reading the report"));
  }, 10_000).unref();
  // Ended, failed or abandoned (the client went away: the web stream's cancel destroys this one): the snapshot goes.
  stream.once("close", () => {
    clearInterval(watch);
    snapshot.release();
  });
  const name = reader.index.model.name ?? "model";
  return {
    fileName: `${fileNameOf(name)} report.zip`,
    body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
  };
}

/**
 * A read-only, repeatable-read transaction held open until release() (idempotent; with an error it rolls back,
 * without one it commits, which for a read-only transaction is the same).
 */
async function openSnapshot(database: Database): Promise<{ tx: DbOrTx; release(error?: unknown): void }> {
  let release: (error?: unknown) => void = () => {};
  const released = new Promise<void>((resolve, reject) => {
    let done = false;
    release = (error) => {
      if (done) return;
      done = true;
      if (error === undefined) resolve();
      else reject(error);
    };
  });
  return new Promise((resolve, reject) => {
    database.db
      .transaction(
        async (tx) => {
          resolve({ tx, release });
          await released;
        },
        { isolationLevel: "repeatable read", accessMode: "read only" },
      )
      // Before the transaction began: the export fails. After: the error was the one release() was given.
      .catch(reject);
  });
}
