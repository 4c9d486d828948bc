import { inflateRawSync } from "node:zlib";
import { AppError } from "@ams/shared";

export type ZipEntry = { name: string; bytes: Uint8Array };

export type ReadZipOptions = {
  /** Largest total of the uncompressed entries; a ZIP bomb is refused before it is inflated past it. */
  maxTotalBytes: number;
  /** Most entries read (directories included). */
  maxEntries?: number;
  /** Which entries to inflate (others are skipped unread); default all files. */
  want?: (name: string) => boolean;
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;

const bad = (message: string) => new AppError("VALIDATION", `file: not a readable ZIP archive (${message})`);

/**
 * The file entries of a ZIP archive (stored or deflated, as every common tool writes them), read from its central
 * directory. Sizes are checked against the declared ones and a total bound, so a forged or bombed archive is
 * refused, never inflated without limit. Directory entries and entries that would leave the archive ("..", absolute
 * paths) are not returned.
 */
export function readZip(bytes: Uint8Array, opts: ReadZipOptions): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (u32(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw bad("no end of central directory");
  const count = u16(end + 10);
  if (count > (opts.maxEntries ?? 10_000)) throw bad(`more than ${opts.maxEntries ?? 10_000} entries`);
  let at = u32(end + 16);
  const out: ZipEntry[] = [];
  let total = 0;
  const decoder = new TextDecoder();
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) throw bad("broken central directory");
    const method = u16(at + 10);
    const compressed = u32(at + 20);
    const size = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    const local = u32(at + 42);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)).replaceAll("\\", "/");
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/") || name.startsWith("/") || name.split("/").includes("..")) continue;
    if (opts.want && !opts.want(name)) continue;
    total += size;
    if (total > opts.maxTotalBytes)
      throw bad(`more than ${Math.round(opts.maxTotalBytes / 1024 / 1024)} MiB uncompressed`);
    if (local + 30 > bytes.length || u32(local) !== LOCAL) throw bad(`entry '${name}' has no local header`);
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    const data = bytes.subarray(start, start + compressed);
    if (data.length !== compressed) throw bad(`entry '${name}' is cut short`);
    let content: Uint8Array;
    if (method === 0) content = data;
    else if (method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
      } catch {
        throw bad(`entry '${name}' does not inflate to its declared size`);
      }
    } else throw bad(`entry '${name}' uses compression method ${method}; use deflate`);
    if (content.length !== size) throw bad(`entry '${name}' is not its declared size`);
    out.push({ name, bytes: content });
  }
  return out;
}
