import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withChange } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import { readProperties, writeProperties } from "../properties/values.ts";
import { assertRelationshipsStillValid } from "../relationships/internal.ts";
import { clearI18n } from "../sql.ts";
import {
  type ElementRow,
  elementColumns,
  expectElement,
  getElementRow,
  parseElementType,
  toElement,
} from "./internal.ts";
import type { Element, UpdateElementInput } from "./schemas.ts";

export async function updateElement({
  ctx,
  input,
}: Verb<UpdateElementInput & { id: string } & ExpectedRevision>): Promise<Element> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const type = input.type !== undefined ? parseElementType(input.type) : undefined;
  const { database } = ctx;
  return withChange(ctx, { summary: `Updated element '${input.id}'` }, async (tx, change) => {
    await expectElement(database, tx, ws, input.id, input.expected_revision);
    const current = await getElementRow(database, ws, input.id, tx);
    change.summary =
      input.name !== undefined && input.name !== current.name
        ? `Renamed ${current.type} '${current.name}' to '${input.name}'`
        : `Updated ${current.type} '${current.name}'`;
    if (type && type !== current.type) await assertRelationshipsStillValid(database, tx, ws, input.id, type);
    const [row] = await database.rows<ElementRow>(
      sql`update elements set
            name = ${input.name ?? current.name},
            type = ${type ?? current.type},
            documentation = ${input.documentation === undefined ? current.documentation : input.documentation},
            i18n = ${clearI18n({ name: input.name, documentation: input.documentation })}
          where workspace_id = ${ws} and id = ${input.id}
          returning ${elementColumns}`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", `Element '${input.id}' not found`);
    if (input.properties) {
      const revision = await writeProperties(
        database,
        tx,
        ws,
        { kind: "element", id: input.id },
        input.properties,
        false,
      );
      if (revision !== undefined) row.revision = revision;
    }
    const props = await readProperties(database, ws, "element", input.id, tx);
    return toElement(row, props.get(input.id));
  });
}
