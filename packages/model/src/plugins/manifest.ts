import { z } from "zod";

/** The one plugin type this service understands; any other type is listed as a placeholder and serves nothing. */
export const ICON_PACK_TYPE = "icon-pack";

/**
 * Plugin ids and icon slugs: lower-case words joined by hyphens or underscores. A slug never contains "/", "." or
 * ":", so a `Service Plugin IconPack` value can always be told apart from a legacy URL or relative path.
 */
export const PLUGIN_SLUG = /^[a-z0-9](?:[a-z0-9_-]{0,126}[a-z0-9])?$/;

const Slug = z.string().regex(PLUGIN_SLUG, "lower-case letters, digits, '-' or '_', at most 128 characters");

/** A path inside the plugin folder: relative, forward slashes, no "..", ending in .svg. */
const IconFile = z
  .string()
  .max(300)
  .regex(
    /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.svg$/,
    "a relative path to an .svg file inside the plugin folder",
  )
  .refine((p) => !p.split("/").includes(".."), "must stay inside the plugin folder");

export const PluginSource = z.object({
  package: z.string().min(1).max(200),
  version: z.string().min(1).max(100),
  license: z.string().min(1).max(200),
});
export type PluginSource = z.infer<typeof PluginSource>;

/** The fields every plugin.json carries, whatever its type. */
export const PluginManifestBase = z.object({
  id: Slug,
  name: z.string().trim().min(1).max(200),
  // Ends up inside ETags and URLs: keep it to the characters of a semantic version.
  version: z.string().regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/, "a version such as 1.2.0"),
  description: z.string().max(2000).default(""),
  type: z.string().min(1).max(100),
  source: PluginSource.optional(),
});
export type PluginManifestBase = z.infer<typeof PluginManifestBase>;

export const IconManifest = z.strictObject({
  slug: Slug,
  name: z.string().trim().min(1).max(200),
  file: IconFile,
});
export type IconManifest = z.infer<typeof IconManifest>;

export const IconPackManifest = PluginManifestBase.extend({
  type: z.literal(ICON_PACK_TYPE),
  icons: z.array(IconManifest).max(10_000),
});
export type IconPackManifest = z.infer<typeof IconPackManifest>;

/** zod issues as "path: message" lines for a start-up error. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);
}
