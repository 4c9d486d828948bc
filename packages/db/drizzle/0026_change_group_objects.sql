ALTER TABLE "change_groups" ADD COLUMN "objects" jsonb;--> statement-breakpoint
-- What the workspace history lists of a change group: its first 20 entries (by seq) as [kind, object_id, op, the
-- name the entry logged (after's name, else before's, else a label), the id a nameless node, connection or property
-- value is named by (element, relationship, property definition)]. Written with the group when it closes
-- (packages/model/src/history/change.ts), so a history page reads one row per group; the reader looks up current
-- names only where the logged one is null, as it did from the entries (workspace-history.ts).
CREATE FUNCTION ams_change_group_objects(ws uuid, rev bigint) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_agg(jsonb_build_array(e.kind, e.object_id, e.op,
           coalesce(e.after->>'name', e.before->>'name', e.after->>'label', e.before->>'label'),
           CASE e.kind
             WHEN 'node' THEN coalesce(e.after, e.before)->>'element_id'
             WHEN 'connection' THEN coalesce(e.after, e.before)->>'relationship_id'
             WHEN 'property_value' THEN coalesce(e.after, e.before)->>'definition_id'
           END) ORDER BY e.seq)
  FROM (SELECT * FROM change_entries x WHERE x.workspace_id = ws AND x.revision = rev ORDER BY x.seq LIMIT 20) e
$$;
--> statement-breakpoint
-- Stored objects with a current name where the entry logged none (the reader calls it only for such lists): a node
-- by the element it shows, a connection by its relationship, a property value by its definition, an element,
-- relationship or view by itself (as workspace-history.ts's objectName does from the entries). A function, so that
-- the planner costs it as one call per listed group, not as a lookup per possible array element.
CREATE FUNCTION ams_change_group_names(ws uuid, objects jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_agg(CASE WHEN o->>3 IS NOT NULL THEN o ELSE jsonb_build_array(o->0, o->1, o->2, CASE o->>0
      WHEN 'node' THEN (SELECT x.name FROM elements x WHERE x.workspace_id = ws AND x.id = o->>4)
      WHEN 'connection' THEN (SELECT x.name FROM relationships x WHERE x.workspace_id = ws AND x.id = o->>4)
      WHEN 'property_value' THEN (SELECT d.name FROM property_definitions d WHERE d.workspace_id = ws AND d.id = o->>4)
      WHEN 'element' THEN (SELECT x.name FROM elements x WHERE x.workspace_id = ws AND x.id = o->>1)
      WHEN 'relationship' THEN (SELECT x.name FROM relationships x WHERE x.workspace_id = ws AND x.id = o->>1)
      WHEN 'view' THEN (SELECT x.name FROM views x WHERE x.workspace_id = ws AND x.id = o->>1)
    END) END ORDER BY i)
  FROM jsonb_array_elements(objects) WITH ORDINALITY AS x(o, i)
$$;
--> statement-breakpoint
-- Existing groups above their workspace's retention mark (those below it are read from their entries, whose detail
-- compaction may have dropped).
UPDATE change_groups g SET objects = ams_change_group_objects(g.workspace_id, g.revision)
FROM workspaces w WHERE w.id = g.workspace_id AND g.revision > w.history_compacted_through;
