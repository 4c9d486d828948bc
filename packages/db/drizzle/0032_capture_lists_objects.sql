-- A change group's close (packages/model/src/history/change.ts) made cheaper (issue 23: a single element update
-- within +0.3 ms of capture off; measured with EXPLAIN ANALYZE beside capture off, the close was the largest part of
-- a single update's capture, then the row-level capture and the opening).
--
-- 1. The objects a group lists (change_groups.objects, migration 0026) are kept by the row-level UPDATE capture as it
-- writes its entries, so that a group of updates closes without reading its entries back for its objects and kinds.
-- Each entry among a group's first 20 whose state after it stores is appended to the transaction-local setting
-- ams.objects as the very item ams_change_group_objects derives from the stored entry (kind, id, op, name, owner);
-- withChange resets the setting when it opens a group. The close uses the list when it holds every one of the
-- group's first entries (min(entries, 20)), else (entries written by the statement-level captures: inserts, deletes,
-- property values) it reads them back as before; the kinds likewise when the list holds every entry. A rollback to
-- a savepoint rolls the list back with the entries (a setting's local value is). Same entries, same group rows.
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
  listed text;
  prior text;
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
    IF base < 20 THEN
      listed := jsonb_build_array(entry_kind, NEW.id, 'update',
                  coalesce(n->>'name', o->>'name', n->>'label', o->>'label'),
                  CASE entry_kind WHEN 'node' THEN n->>'element_id' WHEN 'connection' THEN n->>'relationship_id' END)::text;
    END IF;
  ELSE
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
    VALUES (OLD.workspace_id, rev, base + 1, entry_kind, OLD.id, old_owner, 'delete', o, NULL),
           (NEW.workspace_id, rev, base + 2, entry_kind, NEW.id, new_owner, 'create', NULL,
            CASE WHEN base + 2 <= 20 THEN n END);
    PERFORM set_config('ams.seq', (base + 2)::text, true);
    IF base < 20 THEN
      listed := jsonb_build_array(entry_kind, OLD.id, 'delete', coalesce(o->>'name', o->>'label'),
                  CASE entry_kind WHEN 'node' THEN o->>'element_id' WHEN 'connection' THEN o->>'relationship_id' END)::text;
    END IF;
    IF base + 2 <= 20 THEN
      listed := listed || ',' || jsonb_build_array(entry_kind, NEW.id, 'create', coalesce(n->>'name', n->>'label'),
                  CASE entry_kind WHEN 'node' THEN n->>'element_id' WHEN 'connection' THEN n->>'relationship_id' END)::text;
    END IF;
  END IF;
  IF listed IS NOT NULL THEN
    prior := current_setting('ams.objects', true);
    PERFORM set_config('ams.objects', CASE WHEN coalesce(prior, '') = '' THEN listed ELSE prior || ',' || listed END,
                       true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- 2. The close itself as one PL/pgSQL function (its statements' plans cached for the connection) that runs only the
-- branch it needs: the group's row, or, for a group that changed nothing, the revision given back; it was one
-- statement whose CTEs planned and started both branches and both reads every time. Answers the group's entry count
-- and ends the group (a later write in the transaction is refused).
CREATE FUNCTION ams_close_change(ws uuid, rev bigint, actor_id text, actor_name text, via_kind text, via_name text,
                                 request_id text, summary text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n int := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  listed jsonb;
  listed_kinds text[];
  listed_objects jsonb;
BEGIN
  PERFORM set_config('ams.revision', '', true), set_config('ams.workspace', '', true);
  IF n = 0 THEN
    UPDATE workspaces w SET revision = w.revision - 1 WHERE w.id = ws AND w.revision = rev;
    RETURN 0;
  END IF;
  listed := ('[' || coalesce(current_setting('ams.objects', true), '') || ']')::jsonb;
  IF jsonb_array_length(listed) = least(n, 20) THEN
    listed_objects := listed;
  ELSE
    listed_objects := ams_change_group_objects(ws, rev);
  END IF;
  IF n = 1 AND jsonb_array_length(listed) = 1 THEN
    listed_kinds := ARRAY[listed->0->>0];
  ELSIF jsonb_array_length(listed) = n THEN
    listed_kinds := ARRAY(SELECT DISTINCT l->>0 FROM jsonb_array_elements(listed) l ORDER BY 1);
  ELSE
    listed_kinds := ARRAY(SELECT DISTINCT e.kind FROM change_entries e
                          WHERE e.workspace_id = ws AND e.revision = rev ORDER BY e.kind);
  END IF;
  INSERT INTO change_groups (workspace_id, revision, actor_id, actor_name, via_kind, via_name, request_id, summary,
                             entry_count, kinds, objects)
  VALUES (ws, rev, actor_id, actor_name, via_kind, via_name, request_id, summary, n, listed_kinds, listed_objects);
  RETURN n;
END
$$;
