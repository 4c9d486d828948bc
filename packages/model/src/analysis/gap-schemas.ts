import { z } from "zod";

export const GapQuery = z.strictObject({
  from: z.string().min(1).max(200).describe("The earlier Plateau's id"),
  to: z.string().min(1).max(200).describe("The later Plateau's id"),
});
export type GapQuery = z.infer<typeof GapQuery>;

export const GapImageQuery = GapQuery.extend({
  format: z.string().max(20).optional().describe("svg (default) or png"),
  scale: z.coerce.number().min(0.1).max(8).optional().describe("PNG only: pixels per view unit"),
});

const GapElement = z.object({ id: z.string(), type: z.string(), name: z.string() });
const GapRelationship = z.object({ id: z.string(), type: z.string(), source: z.string(), target: z.string() });
const Split = <T extends z.ZodType>(item: T) =>
  z.object({
    added: z.array(item).describe("In the later plateau only"),
    removed: z.array(item).describe("In the earlier plateau only"),
    kept: z.array(item).describe("In both"),
  });

export const GapResult = z.object({
  from: z.object({ id: z.string(), name: z.string() }),
  to: z.object({ id: z.string(), name: z.string() }),
  elements: Split(GapElement).describe("The elements each plateau is composed of or aggregates"),
  relationships: Split(GapRelationship).describe("The relationships among each plateau's elements"),
  gaps: z.array(z.object({ id: z.string(), name: z.string() })).describe("Gap elements associated with both plateaus"),
});
export type GapResult = z.infer<typeof GapResult>;
