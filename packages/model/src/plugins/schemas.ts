import { z } from "zod";

/** A plugin as the platform administrator lists it. */
export const PluginSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  type: z.string(),
  icon_count: z.number().int(),
  enabled: z.boolean(),
  placeholder: z.boolean().describe("The type is not one this service knows: listed, never served"),
});

export const PluginDetail = PluginSummary.extend({
  source: z.object({ package: z.string(), version: z.string(), license: z.string() }).nullable(),
  icons: z.array(z.object({ slug: z.string(), name: z.string(), file: z.string(), url: z.string() })),
});

/** An enabled icon pack as every member sees it. */
export const PublicPlugin = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  icons: z.array(z.object({ slug: z.string(), name: z.string(), url: z.string() })),
});

export type PluginSummary = z.infer<typeof PluginSummary>;
export type PluginDetail = z.infer<typeof PluginDetail>;
export type PublicPlugin = z.infer<typeof PublicPlugin>;
