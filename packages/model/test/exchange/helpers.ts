import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { must } from "@ams/shared/testing";
import { decodeXml } from "../../src/exchange/index.ts";

/** The shared reference material (XSDs and sample models), beside the repository unless ARCHIMATE_DIR says otherwise. */
export const archimateDir =
  process.env.ARCHIMATE_DIR ?? fileURLToPath(new URL("../../../../../shared/archimate/", import.meta.url));
const xsdDir = join(archimateDir, "xsd");

/** Every sample model except the 2.1 ones, as paths relative to models/. */
export function sampleFiles(): string[] {
  const models = join(archimateDir, "models");
  const files: string[] = [];
  for (const dir of readdirSync(models).sort()) {
    if (dir === "legacy-v2.1") continue;
    for (const file of readdirSync(join(models, dir)).sort()) if (file.endsWith(".xml")) files.push(`${dir}/${file}`);
  }
  return files;
}

export const readSample = (relative: string): string => decodeXml(readFileSync(join(archimateDir, "models", relative)));

export const readFixture = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), "utf8");

/** Validates against the Open Group 3.1 schema (with Dublin Core) offline; returns xmllint's complaints, "" if valid. */
export function schemaErrors(xml: string): string {
  const result = spawnSync("xmllint", ["--nonet", "--noout", "--schema", join(xsdDir, "archimate3_with_dc.xsd"), "-"], {
    input: xml,
    encoding: "utf8",
    env: { ...process.env, XML_CATALOG_FILES: join(xsdDir, "catalog.xml") },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`xmllint is required (apt-get install -y libxml2-utils): ${result.error.message}`);
  if (result.status === 0) return "";
  return result.stderr
    .split("\n")
    .filter((line) => line !== "" && !line.includes("Skipping import of schema"))
    .slice(0, 20)
    .join("\n");
}

/** Start tags named `tag` (any prefix) in the source: an independent count to compare the import against. */
export function countTags(xml: string, tag: string): number {
  return xml.match(new RegExp(`<(?:[\\w.-]+:)?${tag}[\\s/>]`, "g"))?.length ?? 0;
}

/** The identifier attribute of every start tag named `tag`, in document order. */
export function identifiersOf(xml: string, tag: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${tag}\\b[^>]*?\\sidentifier="([^"]*)"`, "g");
  return [...xml.matchAll(re)].map((m) => must(m[1], "the captured group"));
}
