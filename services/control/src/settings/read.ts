import type { Database } from "@ams/db";
import { siteMessages } from "@ams/db";
import type { SiteMessages } from "./schemas.ts";

export async function readSiteMessages(database: Database): Promise<SiteMessages> {
  const rows = await database.db.select().from(siteMessages);
  const find = (kind: string) => rows.find((r) => r.kind === kind);
  const toMessage = (kind: string) => ({ enabled: find(kind)?.enabled ?? false, text: find(kind)?.text ?? "" });
  return { login: toMessage("login"), banner: toMessage("banner") };
}
