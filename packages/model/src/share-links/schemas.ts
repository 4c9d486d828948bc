import { z } from "zod";

/** One source of a CSP frame-ancestors list: 'self', or an http(s) origin (a "*." host wildcard allowed). */
const FRAME_SOURCE = /^(?:'self'|https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?)$/i;

export const FrameAncestors = z
  .string()
  .trim()
  .max(1000)
  .refine(
    (v) =>
      v === "'none'" ||
      (v.length > 0 && v.split(/\s+/).length <= 20 && v.split(/\s+/).every((s) => FRAME_SOURCE.test(s))),
    {
      message:
        "give 'none', or up to 20 sources separated by spaces, each 'self' or an origin like https://intranet.example.com",
    },
  )
  .describe(
    "Where the link may be embedded in an iframe (CSP frame-ancestors): 'none' (the default), 'self', or origins such as https://wiki.example.com",
  );

export const ShareScope = z.enum(["view", "report"]);

export const CreateShareLinkInput = z
  .strictObject({
    scope: ShareScope.describe("view: one view's picture; report: the whole model's HTML report"),
    view_id: z.string().min(1).max(200).optional().describe("The view (scope view only)"),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("When the link stops working (ISO 8601); none: until revoked"),
    frame_ancestors: FrameAncestors.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.scope === "view" && !v.view_id)
      ctx.addIssue({ code: "custom", path: ["view_id"], message: "a view link names its view" });
    if (v.scope === "report" && v.view_id)
      ctx.addIssue({
        code: "custom",
        path: ["view_id"],
        message: "a report link shares the whole model: give no view_id",
      });
    if (v.expires_at && Date.parse(v.expires_at) <= Date.now())
      ctx.addIssue({ code: "custom", path: ["expires_at"], message: "the expiry is in the past" });
  });
export type CreateShareLinkInput = z.infer<typeof CreateShareLinkInput>;

export const ShareLink = z.object({
  id: z.string(),
  scope: ShareScope,
  view_id: z.string().nullable(),
  view_name: z.string().nullable().describe("The view's current name (scope view); null when it was deleted"),
  expires_at: z.string().nullable(),
  frame_ancestors: z.string(),
  created_by: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  created_at: z.string(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** The answer of a creation: the link with its URL, which carries the token and is shown this once. */
export const CreatedShareLink = ShareLink.extend({
  url: z.string().describe("The link to give out; its token is not stored in clear and is not shown again"),
});
export type CreatedShareLink = z.infer<typeof CreatedShareLink>;
