import { z } from "@hono/zod-openapi";

export const MessageKinds = ["login", "banner"] as const;

export const SiteMessage = z.object({ enabled: z.boolean(), text: z.string().max(4000) });

/** The login message (sign-in page) and the banner (every page); plain text, rendered as text by the UI. */
export const SiteMessages = z.object({ login: SiteMessage, banner: SiteMessage }).openapi("SiteMessages");
export type SiteMessages = z.infer<typeof SiteMessages>;

export const UpdateSiteMessages = z.object({ login: SiteMessage.optional(), banner: SiteMessage.optional() });
export type UpdateSiteMessages = z.infer<typeof UpdateSiteMessages>;
