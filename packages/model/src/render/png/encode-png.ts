import { promisify } from "node:util";
import { constants, crc32, deflateRaw } from "node:zlib";

const deflateRawAsync = promisify(deflateRaw);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Below this many bytes of rows one zlib stream is as fast as several. */
const BANDED_BYTES = 1 << 20;
/**
 * zlib's output buffer: node hands each filled one back to the main thread before compressing on (16 KB by
 * default: ~40 round trips for a 700 KB picture, a fifth of its time); as large as the input, up to 4 MB.
 */
const chunkFor = (input: number) => Math.min(4 << 20, Math.max(64 << 10, input));

/** Premultiplied RGBA rows of a picture: a band `height` rows high, as wide as the picture. */
export type Band = { pixels: Buffer; height: number };

/**
 * Premultiplied RGBA pixels (what resvg draws) as a PNG: colour type 6 (RGBA, 8 bits), every row unfiltered,
 * compressed by zlib at level 1 on libuv's thread pool. resvg's own asPng() encodes on the calling thread (17 ms
 * for a 1568 × 469 picture, about 1 s at the 16-megapixel cap, during which the process answered nothing else);
 * level 1 on unfiltered rows is as fast and gives files no larger. `pixels` is left as it is. A large picture is
 * compressed in `bands` bands of rows at once (see encodePngBands).
 */
export async function encodePng(pixels: Buffer, width: number, height: number, bands = 1): Promise<Buffer> {
  const stride = width * 4;
  if (pixels.length !== stride * height) throw new Error(`${pixels.length} bytes are not ${width} × ${height} RGBA`);
  const count = pixels.length >= BANDED_BYTES ? Math.max(1, Math.min(bands, height)) : 1;
  const parts: Band[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * height) / count);
    const to = Math.floor(((i + 1) * height) / count);
    parts.push({ pixels: pixels.subarray(from * stride, to * stride), height: to - from });
  }
  return encodePngBands(
    parts.map((band) => Promise.resolve(band)),
    width,
  );
}

/**
 * A PNG of bands of rows, top to bottom, each compressed as soon as it arrives while the others are still being
 * drawn or compressed (zlib on libuv's thread pool). Each band but the last ends with a full flush, so the bands
 * joined are one deflate stream; it is wrapped in the zlib header and the Adler-32 of all rows (each band's,
 * combined) as PNG asks. A band starts without the previous band's window, which costs about 1% of size.
 */
export async function encodePngBands(bands: readonly Promise<Band>[], width: number): Promise<Buffer> {
  const stride = width * 4;
  const last = bands.length - 1;
  const done = await Promise.all(
    bands.map(async (arriving, i) => {
      const band = await arriving;
      if (band.pixels.length !== stride * band.height) {
        throw new Error(`${band.pixels.length} bytes are not ${width} × ${band.height} RGBA`);
      }
      const raw = Buffer.allocUnsafe((stride + 1) * band.height);
      for (let y = 0; y < band.height; y++) {
        const row = y * (stride + 1);
        raw[row] = 0;
        band.pixels.copy(raw, row + 1, y * stride, (y + 1) * stride);
      }
      unpremultiply(band.pixels, raw, width, band.height);
      const compressed = deflateRawAsync(raw, {
        level: 1,
        chunkSize: chunkFor(raw.length),
        finishFlush: i === last ? constants.Z_FINISH : constants.Z_FULL_FLUSH,
      });
      // Counted while zlib compresses the band.
      const sum = adler32(raw);
      return { data: await compressed, sum, length: raw.length, height: band.height };
    }),
  );
  let sum = 1;
  let height = 0;
  for (const band of done) {
    sum = adler32Combine(sum, band.sum, band.length);
    height += band.height;
  }
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(sum);
  // CMF 0x78 (deflate, 32 KB window), FLG 0x01 (fastest compression, no dictionary; 0x7801 is a multiple of 31).
  const idat = Buffer.concat([Buffer.from([0x78, 0x01]), ...done.map((band) => band.data), trailer]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per sample
  ihdr[9] = 6; // RGBA
  return Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * PNG stores straight alpha: each colour of a partly transparent pixel (found in `pixels`, a word at a time where
 * the buffer is aligned) divided by its alpha, rounded, in `raw` (the rows with their filter bytes).
 */
function unpremultiply(pixels: Buffer, raw: Buffer, width: number, height: number) {
  const stride = width * 4;
  const fix = (p: number) => {
    const a = pixels.readUInt8(p + 3);
    if (a === 255 || a === 0) return;
    const at = Math.floor(p / stride) * (stride + 1) + 1 + (p % stride);
    for (let c = 0; c < 3; c++) raw[at + c] = Math.min(255, Math.round((pixels.readUInt8(p + c) * 255) / a));
  };
  if (pixels.byteOffset % 4 === 0) {
    const words = new Uint32Array(pixels.buffer, pixels.byteOffset, width * height);
    // Little- or big-endian, an opaque pixel's word has 0xff in the alpha byte's place.
    const opaque = new Uint8Array(new Uint32Array([0xff000000]).buffer)[3] === 0xff ? 0xff000000 : 0x000000ff;
    for (let i = 0; i < words.length; i++) {
      if (((words[i] ?? 0) & opaque) >>> 0 !== opaque >>> 0) fix(i * 4);
    }
  } else {
    for (let p = 0; p < pixels.length; p += 4) fix(p);
  }
}

const ADLER_BASE = 65521;

/** Adler-32 (RFC 1950) of `data`. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    // 5,552 bytes is the most that can be summed before b could pass 2^32 (RFC 1950's NMAX); numbers here are exact.
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i] ?? 0;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two runs of bytes one after the other, from each run's and the second run's length (zlib's adler32_combine). */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  const a1 = first & 0xffff;
  const b1 = first >>> 16;
  const a2 = second & 0xffff;
  const b2 = second >>> 16;
  const a = (a1 + a2 + ADLER_BASE - 1) % ADLER_BASE;
  const b = (((rem * a1) % ADLER_BASE) + b1 + b2 + ADLER_BASE - rem) % ADLER_BASE;
  return ((b << 16) | a) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
