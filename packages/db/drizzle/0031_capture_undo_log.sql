-- The change log as an undo log (issue 23: capture cost). An entry stores the object's row `before` the change; its
-- `after` is not needed in the log, because the log already holds it: the state after an entry is the `before` of
-- the object's next entry, or the object's current row when no later entry names it (the same rule by which the log
-- reconstructs any past state backwards from the current model, history/states.ts). ams_entry_after below answers
-- it, and every reader of `after` reads it through that function, which answers a stored `after` as it is.
-- The capture stores `after` only for a group's first 20 entries (what the group's row lists with the names after
-- the change, ams_change_group_objects: a small group's close then reads them instead of deriving them; a single
-- update's entry is as before). Beyond them a create entry stores the object's key only (kind, id, owner): an import
-- into an empty workspace does not write the model a second time as jsonb, and an update or delete its row before.
-- Entries written before this migration keep what they stored.
--
-- Retention (history/compact.ts) drops the detail of old entries and moves workspaces.history_compacted_through: at
-- or below that mark an entry's `after` is the one stored (compaction writes it out for the entries it keeps for a
-- version or an open draft, before dropping the `before` it derives from), else unknown (NULL), as before.

-- An object's current row as the log stores rows (without workspace_id and revision); for 'model' the workspace's
-- model data. NULL when the object does not exist.
CREATE FUNCTION ams_current_row(ws uuid, entry_kind text, oid text) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  ord_text text;
BEGIN
  CASE entry_kind
    WHEN 'element' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM elements t WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'relationship' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM relationships t
              WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'view' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM views t WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'node' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM view_nodes t
              WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'connection' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM connections t
              WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'folder' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM folders t WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'property_definition' THEN
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM property_definitions t
              WHERE t.workspace_id = ws AND t.id = oid);
    WHEN 'property_value' THEN
      -- "<owner id>/<ord>" (ams_change_object_id); the owner's id may itself hold a slash.
      ord_text := substring(oid FROM '[0-9]+$');
      IF ord_text IS NULL THEN
        RETURN NULL;
      END IF;
      RETURN (SELECT to_jsonb(t) - 'workspace_id' - 'revision' FROM property_values t
              WHERE t.workspace_id = ws AND t.owner_kind IN ('model', 'element', 'relationship', 'view')
                AND t.owner_id = left(oid, length(oid) - length(ord_text) - 1) AND t.ord = ord_text::int);
    WHEN 'model' THEN
      RETURN (SELECT w.model FROM workspaces w WHERE w.id = ws);
    ELSE
      RETURN NULL;
  END CASE;
END
$$;
--> statement-breakpoint
-- An entry's state after as every reader of the log reads it (history, live events, graph sync, the objects a group
-- lists): the stored `after` (entries written before migration 0031, or written out by compaction), NULL for a
-- deletion, else the `before` of the object's next entry, else its current row. At or below the workspace's
-- retention mark only what is stored (compacted detail is gone), unless `whatever_the_mark` (compaction itself, which
-- writes it out before moving the mark).
CREATE FUNCTION ams_entry_after(ws uuid, rev bigint, sq integer, entry_kind text, oid text, entry_op text,
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
    AND (n.revision > rev OR n.seq > sq)
  ORDER BY n.revision, n.seq
  LIMIT 1;
  IF FOUND THEN
    RETURN nxt;
  END IF;
  RETURN ams_current_row(ws, entry_kind, oid);
END
$$;
--> statement-breakpoint
-- Inserts: one entry per row, its key only (no jsonb is built), but for the group's first 20 entries, which store the
-- row after too: they are what the group's row lists (ams_change_group_objects, with the names after the change), so
-- a small group's close reads them as stored instead of deriving them. One statement per INSERT, branches per table
-- (a trigger function's statements are planned per table, so each branch names its own columns).
CREATE OR REPLACE FUNCTION ams_capture_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_kind text := ams_change_kind(TG_TABLE_NAME);
  rev bigint := ams_change_revision(TG_TABLE_NAME, ARRAY(SELECT DISTINCT n.workspace_id FROM new_rows n));
  base int;
  added int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  IF TG_TABLE_NAME IN ('view_nodes', 'connections') THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT (x.n).workspace_id, rev, base + x.i, entry_kind, (x.n).id, (x.n).view_id, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSIF TG_TABLE_NAME = 'folders' THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT (x.n).workspace_id, rev, base + x.i, entry_kind, (x.n).id, (x.n).ref_id, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSIF TG_TABLE_NAME = 'property_values' THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT (x.n).workspace_id, rev, base + x.i, entry_kind, (x.n).owner_id || '/' || (x.n).ord,
           nullif((x.n).owner_id, ''), 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  ELSE
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, after)
    SELECT (x.n).workspace_id, rev, base + x.i, entry_kind, (x.n).id, NULL, 'create',
           CASE WHEN base + x.i <= 20 THEN to_jsonb(x.n) - 'workspace_id' - 'revision' END
    FROM (SELECT n, (row_number() OVER ())::int AS i FROM new_rows n) x;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  PERFORM set_config('ams.seq', (base + added)::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Row-level UPDATE capture (migration 0029): the row before (and, among the group's first 20 entries, after; see
-- above). A row left as it was but for its revision records nothing (compared as rows, without building jsonb).
-- The owner is read from the row's own column.
CREATE OR REPLACE FUNCTION ams_capture_update_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rev bigint := ams_change_revision(TG_TABLE_NAME, CASE WHEN NEW.workspace_id = OLD.workspace_id
    THEN ARRAY[NEW.workspace_id] ELSE ARRAY[OLD.workspace_id, NEW.workspace_id] END);
  entry_kind text;
  o jsonb;
  n jsonb;
  old_owner text;
  new_owner text;
  base int;
  same record;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  -- Unchanged but for its revision (a change of its property values moves an object's revision): nothing to record.
  same := NEW;
  same.revision := OLD.revision;
  IF same IS NOT DISTINCT FROM OLD THEN
    RETURN NULL;
  END IF;
  entry_kind := ams_change_kind(TG_TABLE_NAME);
  o := to_jsonb(OLD) - 'workspace_id' - 'revision';
  IF TG_TABLE_NAME IN ('view_nodes', 'connections') THEN
    old_owner := OLD.view_id;
    new_owner := NEW.view_id;
  ELSIF TG_TABLE_NAME = 'folders' THEN
    old_owner := OLD.ref_id;
    new_owner := NEW.ref_id;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  IF base < 20 THEN
    n := to_jsonb(NEW) - 'workspace_id' - 'revision';
  END IF;
  IF OLD.id = NEW.id AND OLD.workspace_id = NEW.workspace_id THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
    VALUES (NEW.workspace_id, rev, base + 1, entry_kind, NEW.id, new_owner, 'update', o, n);
    PERFORM set_config('ams.seq', (base + 1)::text, true);
  ELSE
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
    VALUES (OLD.workspace_id, rev, base + 1, entry_kind, OLD.id, old_owner, 'delete', o, NULL),
           (NEW.workspace_id, rev, base + 2, entry_kind, NEW.id, new_owner, 'create', NULL,
            CASE WHEN base + 2 <= 20 THEN n END);
    PERFORM set_config('ams.seq', (base + 2)::text, true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Statement-level UPDATE capture (property values, paired by key): the rows before (and after among the first 20).
CREATE OR REPLACE FUNCTION ams_capture_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_kind text := ams_change_kind(TG_TABLE_NAME);
  rev bigint := ams_change_revision(TG_TABLE_NAME, ARRAY(SELECT DISTINCT n.workspace_id FROM new_rows n));
  base int;
  added int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
  SELECT coalesce(n.workspace_id, o.workspace_id), rev, base + (row_number() OVER ())::int, entry_kind,
         coalesce(n.k, o.k), ams_change_owner_id(entry_kind, coalesce(n.j, o.j)),
         CASE WHEN o.j IS NULL THEN 'create' WHEN n.j IS NULL THEN 'delete' ELSE 'update' END, o.j,
         CASE WHEN base + (row_number() OVER ())::int <= 20 THEN n.j END
  FROM (SELECT r.workspace_id, j, ams_change_object_id(entry_kind, j) AS k
        FROM old_rows r, LATERAL (SELECT to_jsonb(r) - 'workspace_id' - 'revision' AS j) l) o
  FULL JOIN (SELECT r.workspace_id, j, ams_change_object_id(entry_kind, j) AS k
             FROM new_rows r, LATERAL (SELECT to_jsonb(r) - 'workspace_id' - 'revision' AS j) l) n
    ON n.k = o.k
  WHERE o.j IS DISTINCT FROM n.j;
  GET DIAGNOSTICS added = ROW_COUNT;
  PERFORM set_config('ams.seq', (base + added)::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The model's own data: its value before (and after among the first 20 entries).
CREATE OR REPLACE FUNCTION ams_capture_model() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rev bigint := ams_change_revision('workspaces.model', ARRAY[NEW.id]);
  base int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int + 1;
  INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
  VALUES (NEW.id, rev, base, 'model', NEW.id::text, NULL, 'update', OLD.model, CASE WHEN base <= 20 THEN NEW.model END);
  PERFORM set_config('ams.seq', base::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The objects a group lists (migration 0026, 0030): its first 20 entries, whose state after the capture stores; as
-- ams_entry_after reads it where not (the group is the workspace's newest when it closes: no retention mark).
CREATE OR REPLACE FUNCTION ams_change_group_objects(ws uuid, rev bigint) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT jsonb_agg(jsonb_build_array(e.kind, e.object_id, e.op,
             coalesce(e.after->>'name', e.before->>'name', e.after->>'label', e.before->>'label'),
             CASE e.kind
               WHEN 'node' THEN coalesce(e.after, e.before)->>'element_id'
               WHEN 'connection' THEN coalesce(e.after, e.before)->>'relationship_id'
               WHEN 'property_value' THEN coalesce(e.after, e.before)->>'definition_id'
             END) ORDER BY e.seq)
    FROM (SELECT x.kind, x.object_id, x.op, x.seq, x.before,
                 -- Stored by the capture for a group's first 20 entries; derived only for entries written
                 -- otherwise (a retention's or an older tree's).
                 CASE WHEN x.after IS NOT NULL OR x.op = 'delete' THEN x.after
                   ELSE ams_entry_after(x.workspace_id, x.revision, x.seq, x.kind, x.object_id, x.op, x.after, true)
                 END AS after
          FROM change_entries x WHERE x.workspace_id = ws AND x.revision = rev ORDER BY x.seq LIMIT 20) e);
END
$$;
