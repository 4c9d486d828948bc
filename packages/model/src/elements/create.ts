import { first } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withChange } from "../history/change.ts";
import { newId } from "../ids.ts";
import { readProperties, writeProperties } from "../properties/values.ts";
import { assertIdentifierFree, type ElementRow, elementColumns, parseElementType, toElement } from "./internal.ts";
import type { CreateElementInput, Element } from "./schemas.ts";

export async function createElement({ ctx, input }: Verb<CreateElementInput>): Promise<Element> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const type = parseElementType(input.type);
  const { database } = ctx;
  return withChange(ctx, { summary: `Created ${type} '${input.name}'` }, async (tx) => {
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(database, tx, ws, id);
    const rows = await database.rows<ElementRow>(
      sql`insert into elements (workspace_id, id, ord, type, name, documentation)
          values (${ws}, ${id}, coalesce((select max(ord) + 1 from elements where workspace_id = ${ws}), 0),
            ${type}, ${input.name}, ${input.documentation ?? null})
          returning ${elementColumns}`,
      tx,
    );
    const row = first(rows, "The inserted element");
    if (input.properties) {
      await writeProperties(database, tx, ws, { kind: "element", id }, input.properties, true);
      const props = await readProperties(database, ws, "element", id, tx);
      return toElement(row, props.get(id));
    }
    return toElement(row);
  });
}
