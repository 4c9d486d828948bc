import { type Database, organizations } from "@ams/db";
import { AppError } from "@ams/shared";
import { eq } from "drizzle-orm";
import { isUuid } from "../gateway/resolve.ts";

/** Platform routes act on any organization, but it has to exist. */
export async function requireOrganization(database: Database, id: string): Promise<string> {
  const [row] = isUuid(id)
    ? await database.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id))
    : [];
  if (!row) throw new AppError("NOT_FOUND", "Organization not found");
  return row.id;
}
