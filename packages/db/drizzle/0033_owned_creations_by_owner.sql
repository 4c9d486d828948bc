-- An import's change group written with fewer index entries (issue 23: the 100k import within 1.15x of capture off).
-- Measured on the 100k model (482,532 entries, each index's cost as that of the entries inserted with and without
-- it): the object index was the largest part of the capture's cost, about as much as the entries' rows themselves.
--
-- 1. The object index leaves out the creation of an owned object: a node or connection (owner: its view), a property
-- value (its owner), a folder entry referring to a concept. Those entries are in the owner index, by which the history
-- of an element or a view and the restore of one find them; every entry stays in at least one of the two indexes
-- (an entry with no owner is in the object index whatever its operation). The readers that look an element,
-- relationship or view up by kind and id say that its entries have no owner (true of every entry of those kinds),
-- so that this partial index serves them. Of an import into an empty workspace, a third of the entries are such
-- creations (property values, nodes, connections, folder entries).
DROP INDEX "change_entries_object_idx";--> statement-breakpoint
CREATE INDEX "change_entries_object_idx" ON "change_entries" USING btree ("workspace_id","kind","object_id","revision")
  WHERE op <> 'create' or owner_id is null;
--> statement-breakpoint
-- 2. The state after an entry (migration 0031) is the `before` of the object's next entry, which is never a creation:
-- an entry that is not a deletion leaves the object existing, so its next change updates or deletes it (a deletion's
-- state after is NULL, answered before looking). Saying so lets the lookup use the object index above for every kind.
CREATE OR REPLACE FUNCTION ams_entry_after(ws uuid, rev bigint, sq integer, entry_kind text, oid text, entry_op text,
                                           stored jsonb, whatever_the_mark boolean DEFAULT false) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  nxt jsonb;
BEGIN
  IF stored IS NOT NULL OR entry_op = 'delete' THEN
    RETURN stored;
  END IF;
  IF NOT whatever_the_mark AND rev <= (SELECT w.history_compacted_through FROM workspaces w WHERE w.id = ws) THEN
    RETURN NULL;
  END IF;
  SELECT n.before INTO nxt FROM change_entries n
  WHERE n.workspace_id = ws AND n.kind = entry_kind AND n.object_id = oid AND n.revision >= rev
    AND (n.revision > rev OR n.seq > sq) AND n.op <> 'create'
  ORDER BY n.revision, n.seq
  LIMIT 1;
  IF FOUND THEN
    RETURN nxt;
  END IF;
  RETURN ams_current_row(ws, entry_kind, oid);
END
$$;
--> statement-breakpoint
-- 3. The insert capture checks the rows' workspace as it writes their entries (a row of another workspace than the
-- open group's is refused, as before) instead of reading the inserted rows once more for their distinct workspaces
-- first; that read is left to the case without an open group (capture off, a workspace being deleted, or refused).
CREATE FUNCTION ams_refuse_other_workspace(tbl text, ws uuid) RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING
    ERRCODE = 'object_not_in_prerequisite_state',
    MESSAGE = format('A change to %s of another workspace than the open change group''s (%s)', tbl, ws);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ams_capture_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_kind text := ams_change_kind(TG_TABLE_NAME);
  rev bigint := nullif(current_setting('ams.revision', true), '')::bigint;
  ws uuid;
  base int;
  added int;
BEGIN
  IF rev IS NULL THEN
    -- Raises unless the rows may change unrecorded (ams_change_revision, migration 0018).
    PERFORM ams_change_revision(TG_TABLE_NAME, ARRAY(SELECT DISTINCT n.workspace_id FROM new_rows n));
    RETURN NULL;
  END IF;
  ws := current_setting('ams.workspace')::uuid;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  IF TG_TABLE_NAME IN ('view_nodes', 'connections') THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT CASE WHEN (x.n).workspace_id = ws THEN ws ELSE ams_refuse_other_workspace(TG_TABLE_NAME, ws) END,
           rev, base + x.i, entry_kind, (x.n).id, (x.n).view_id, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSIF TG_TABLE_NAME = 'folders' THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT CASE WHEN (x.n).workspace_id = ws THEN ws ELSE ams_refuse_other_workspace(TG_TABLE_NAME, ws) END,
           rev, base + x.i, entry_kind, (x.n).id, (x.n).ref_id, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSIF TG_TABLE_NAME = 'property_values' THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT CASE WHEN (x.n).workspace_id = ws THEN ws ELSE ams_refuse_other_workspace(TG_TABLE_NAME, ws) END,
           rev, base + x.i, entry_kind, (x.n).owner_id || '/' || (x.n).ord, nullif((x.n).owner_id, ''), 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSE
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT CASE WHEN (x.n).workspace_id = ws THEN ws ELSE ams_refuse_other_workspace(TG_TABLE_NAME, ws) END,
           rev, base + x.i, entry_kind, (x.n).id, NULL, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  PERFORM set_config('ams.seq', (base + added)::text, true);
  RETURN NULL;
END
$$;
