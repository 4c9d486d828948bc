import { Readable } from "node:stream";
import { AppError, invalid } from "@ams/shared";
import Busboy from "busboy";

export type UploadedFile = { name: string; bytes: Uint8Array };
export type MultipartUpload = {
  /** The part named `file` (an XML import's one file). */
  file?: UploadedFile;
  /** Every file part in order, when the form may hold several (a CSV import's three files). */
  files: UploadedFile[];
  fields: Record<string, string>;
};

/** What an import form may hold: one file and a few short text fields (name, description, organization_id). */
const LIMITS = { parts: 10, files: 1, fields: 8, fieldSize: 64 * 1024 } as const;

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Reads a multipart/form-data import while it streams: the part count, field sizes and the file size are enforced
 * as the bytes arrive, so a hostile form (thousands of parts, a huge field) is refused before it is buffered; only
 * the one `file` part is kept in memory, up to the upload limit. Malformed bodies are a 400 that says so.
 */
export function readMultipart(
  request: Request,
  maxFileBytes: number,
  opts: { files?: number } = {},
): Promise<MultipartUpload> {
  const maxFiles = opts.files ?? LIMITS.files;
  const contentType = request.headers.get("content-type") ?? "";
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({
        headers: { "content-type": contentType },
        limits: { ...LIMITS, files: maxFiles, fileSize: maxFileBytes },
      });
    } catch (err) {
      reject(new AppError("BAD_REQUEST", `Malformed multipart request: ${(err as Error).message}`));
      return;
    }
    const upload: MultipartUpload = { files: [], fields: {} };
    let failure: AppError | undefined;
    const fail = (err: AppError) => {
      failure ??= err;
    };
    parser.on("file", (field, stream, info) => {
      if (field !== "file" && maxFiles === 1) {
        stream.resume();
        fail(invalid(field, "unexpected file field; send the model as the multipart field 'file'"));
        return;
      }
      const chunks: Buffer[] = [];
      // A part cut short ends its stream with an error too; the parser's own error answers the request.
      stream.on("error", () => {});
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () =>
        fail(
          new AppError(
            "PAYLOAD_TOO_LARGE",
            `The uploaded file is larger than the upload limit of ${mib(maxFileBytes)}`,
          ),
        ),
      );
      stream.on("end", () => {
        const file = { name: info.filename ?? "upload.xml", bytes: new Uint8Array(Buffer.concat(chunks)) };
        if (field === "file") upload.file ??= file;
        upload.files.push(file);
      });
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(invalid(name, `must be at most ${LIMITS.fieldSize / 1024} KiB`));
      else upload.fields[name] = value;
    });
    parser.on("partsLimit", () => fail(invalid("body", `a multipart import holds at most ${LIMITS.parts} parts`)));
    parser.on("filesLimit", () =>
      fail(
        invalid(
          "body",
          maxFiles === 1
            ? "a multipart import holds exactly one file"
            : `a multipart import holds at most ${maxFiles} files`,
        ),
      ),
    );
    parser.on("fieldsLimit", () => fail(invalid("body", `a multipart import holds at most ${LIMITS.fields} fields`)));
    parser.on("error", (err: Error) =>
      reject(failure ?? new AppError("BAD_REQUEST", `Malformed multipart request: ${err.message}`)),
    );
    parser.on("close", () => (failure ? reject(failure) : resolve(upload)));
    if (!request.body) {
      reject(new AppError("BAD_REQUEST", "Malformed multipart request: the body is empty"));
      return;
    }
    const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
    body.on("error", (err) => {
      // The body-limit middleware ends an over-long body with its own 413: keep that answer.
      if (err instanceof AppError) fail(err);
      parser.destroy(err);
    });
    body.pipe(parser);
  });
}
