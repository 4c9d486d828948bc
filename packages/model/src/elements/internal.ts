import type { Database, DbOrTx } from "@ams/db";
import { AppError, type ElementType, invalid, notFound, resolveElementType } from "@ams/shared";
import { sql } from "drizzle-orm";
import { expectRevision } from "../history/expect.ts";
import { readProperties } from "../properties/values.ts";
import type { Properties } from "../schemas.ts";
import type { Element } from "./schemas.ts";

export type ElementRow = {
  id: string;
  type: string;
  name: string;
  documentation: string | null;
  revision: number | string;
};

/** The columns of an ElementRow, for selects and returning clauses. */
export const elementColumns = sql`id, type, name, documentation, revision`;

export const toElement = (row: ElementRow, properties: Properties = {}): Element => ({
  id: row.id,
  type: row.type,
  name: row.name,
  documentation: row.documentation,
  properties,
  revision: Number(row.revision),
});

export function parseElementType(input: string, path = "type"): ElementType {
  const type = resolveElementType(input);
  if (!type) throw invalid(path, `'${input}' is not an ArchiMate 3.1 element type`, "elementTypes");
  return type;
}

/** The element, scoped to the workspace in the WHERE clause; NOT_FOUND whether missing or elsewhere. */
export async function getElementRow(database: Database, workspaceId: string, id: string, on?: DbOrTx) {
  const [row] = await database.rows<ElementRow>(
    sql`select ${elementColumns} from elements where workspace_id = ${workspaceId} and id = ${id}`,
    on,
  );
  if (!row) throw notFound("Element", id);
  return row;
}

/** expectRevision for an element: refused with the element as it is now (its properties included). */
export function expectElement(database: Database, tx: DbOrTx, ws: string, id: string, expected: number | undefined) {
  return expectRevision(database, tx, { table: "elements", workspaceId: ws, id, what: "Element" }, expected, async () =>
    toElement(
      await getElementRow(database, ws, id, tx),
      (await readProperties(database, ws, "element", id, tx)).get(id),
    ),
  );
}

/** Model identifiers are unique across every kind of object of a workspace (they are xs:IDs in the export). */
export async function assertIdentifierFree(database: Database, tx: DbOrTx, workspaceId: string, id: string) {
  if (!/^[A-Za-z_][\w.-]*$/.test(id))
    throw invalid("id", "must be a valid xs:ID (start with a letter or _, then letters, digits, . - _)");
  const [row] = await database.rows(
    sql`select 1 from elements where workspace_id = ${workspaceId} and id = ${id}
        union all select 1 from relationships where workspace_id = ${workspaceId} and id = ${id}
        union all select 1 from views where workspace_id = ${workspaceId} and id = ${id}
        union all select 1 from view_nodes where workspace_id = ${workspaceId} and id = ${id}
        union all select 1 from connections where workspace_id = ${workspaceId} and id = ${id}
        union all select 1 from property_definitions where workspace_id = ${workspaceId} and id = ${id}
        limit 1`,
    tx,
  );
  if (row) throw new AppError("CONFLICT", `Identifier '${id}' is already used in this workspace`);
}
