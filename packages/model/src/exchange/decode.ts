import { AppError } from "@ams/shared";

/**
 * Bytes of an uploaded file to a string, honouring a byte-order mark or the encoding named in the XML declaration
 * (Sparx EA writes windows-1252). parseExchange takes the string; HTTP and MCP adapters call this first.
 */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared, { fatal: true });
  } catch {
    throw new AppError("VALIDATION", `line 1: unsupported encoding '${declared}'`, {
      errors: [{ path: "line 1", message: `unsupported encoding '${declared}'` }],
    });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    const message = `the file is not valid ${declared}`;
    throw new AppError("VALIDATION", `line 1: ${message}`, { errors: [{ path: "line 1", message }] });
  }
}
