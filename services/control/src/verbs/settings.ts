import { siteMessages } from "@ams/db";
import { readSiteMessages } from "../settings/read.ts";
import { MessageKinds, type SiteMessages, type UpdateSiteMessages } from "../settings/schemas.ts";
import type { PublicContext, SignedInContext } from "./context.ts";

/** The login message and the banner (public: the sign-in page shows them). */
export function getSiteMessages({ ctx }: { ctx: PublicContext }): Promise<SiteMessages> {
  return readSiteMessages(ctx.database);
}

/** Sets the login message and/or the banner (Admin only, checked by the gateway); one left out is unchanged. */
export async function updateSiteMessages({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: UpdateSiteMessages;
}): Promise<SiteMessages> {
  const now = ctx.clock();
  const updatedBy = ctx.principal.userId;
  await ctx.database.db.transaction(async (tx) => {
    for (const kind of MessageKinds) {
      const message = input[kind];
      if (!message) continue;
      await tx
        .insert(siteMessages)
        .values({ kind, ...message, updatedAt: now, updatedBy })
        .onConflictDoUpdate({ target: siteMessages.kind, set: { ...message, updatedAt: now, updatedBy } });
    }
  });
  return readSiteMessages(ctx.database);
}
