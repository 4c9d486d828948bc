import { promisify } from "node:util";
import { crc32, deflate } from "node:zlib";

const deflateAsync = promisify(deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Premultiplied RGBA pixels (what resvg draws) as a PNG: colour type 6 (RGBA, 8 bits), every row unfiltered,
 * compressed by zlib at level 1 on libuv's thread pool. resvg's own asPng() encodes on the calling thread (17 ms
 * for a 1568 × 469 picture, about 1 s at the 16-megapixel cap, during which the process answered nothing else);
 * level 1 on unfiltered rows is as fast and gives files no larger. `pixels` is left as it is.
 */
export async function encodePng(pixels: Buffer, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  if (pixels.length !== stride * height) throw new Error(`${pixels.length} bytes are not ${width} × ${height} RGBA`);
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 0;
    pixels.copy(raw, row + 1, y * stride, (y + 1) * stride);
  }
  unpremultiply(pixels, raw, width, height);
  const idat = await deflateAsync(raw, { level: 1 });
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

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
