import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The shared ArchiMate reference material, read in place (never copied into the repo). */
export const archimateDir = fileURLToPath(new URL("../../../../../shared/archimate/", import.meta.url));

export const sampleFiles = (): string[] =>
  ["archi-tests", "opengroup-examples", "tool-exports"].flatMap((dir) =>
    readdirSync(`${archimateDir}models/${dir}`)
      .filter((f) => f.endsWith(".xml"))
      .map((f) => `models/${dir}/${f}`),
  );

export const readSample = (rel: string) => readFileSync(`${archimateDir}${rel}`, "utf8");
