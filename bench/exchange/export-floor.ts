import type postgres from "postgres";

/**
 * The export floor's reads: the statements readModel sends, bare on postgres.js, pipelined on one connection,
 * results untouched, no transaction. The export adds to them its repeatable-read snapshot (BEGIN and COMMIT), the
 * mapping into the document, and the serialization.
 */
export function bareExportSelects(pg: postgres.Sql, ws: string) {
  return () =>
    Promise.all([
      pg`select model, name from workspaces where id = ${ws}`,
      pg`select id, ord, name, type, is_system, i18n from property_definitions where workspace_id = ${ws} order by ord`,
      pg`select id, ord, type, name, documentation, i18n from elements where workspace_id = ${ws} order by ord`,
      pg`select id, ord, type, source_id, target_id, name, documentation, is_directed, access_type, influence_strength, i18n
          from relationships where workspace_id = ${ws} order by ord`,
      pg`select id, ord, name, viewpoint, documentation, i18n from views where workspace_id = ${ws} order by ord`,
      pg`select id, view_id, parent_id, ord, kind, element_id, x, y, w, h, label, documentation, i18n, style
          from view_nodes where workspace_id = ${ws} order by view_id, ord`,
      pg`select id, view_id, ord, kind, relationship_id, source_id, target_id, bendpoints, label, documentation, i18n, style
          from connections where workspace_id = ${ws} order by view_id, ord`,
      pg`select owner_kind, owner_id, ord, definition_id, value, i18n
          from property_values where workspace_id = ${ws} order by owner_kind, owner_id, ord`,
      pg`select id, parent_id, ord, identifier, label, documentation, ref_id, i18n
          from folders where workspace_id = ${ws} order by parent_id nulls first, ord`,
    ]);
}
