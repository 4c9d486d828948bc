-- The change log's capture of UPDATEs (migration 0018) for the tables whose objects are keyed by their id (all but
-- property_values, keyed by owner and position): a row-level trigger instead of the statement-level one with
-- transition tables. It records the same entries (one 'update' entry per changed row with the whole row before and
-- after; a row an update left as it was records nothing; the open group's revision, seq and refusal outside a group
-- as before). A statement-level trigger pays for two transition tuplestores, a hash full join and a window
-- aggregate per statement, which is most of a single-row update's capture cost (issue 23: a single element update
-- within +0.3 ms of capture off); measured server-side (a loop of 3,000 single-row UPDATEs in one transaction,
-- alternating the two triggers) the row-level capture costs about half, and a 565-row UPDATE within ~20% of the
-- statement-level one. An id does not change by UPDATE in this model; should one, the row is recorded as the old
-- object deleted and the new one created (as the statement-level pairing by key did for a single row).
-- property_values keep the statement-level trigger: a statement may renumber positions (swap two values), which
-- only pairing the statement's old and new rows by key records as updates.
CREATE FUNCTION ams_capture_update_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rev bigint := ams_change_revision(TG_TABLE_NAME, CASE WHEN NEW.workspace_id = OLD.workspace_id
    THEN ARRAY[NEW.workspace_id] ELSE ARRAY[OLD.workspace_id, NEW.workspace_id] END);
  entry_kind text;
  o jsonb;
  n jsonb;
  ok text;
  nk text;
  base int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  o := to_jsonb(OLD) - 'workspace_id' - 'revision';
  n := to_jsonb(NEW) - 'workspace_id' - 'revision';
  IF o = n THEN
    RETURN NULL;
  END IF;
  entry_kind := ams_change_kind(TG_TABLE_NAME);
  ok := ams_change_object_id(entry_kind, o);
  nk := ams_change_object_id(entry_kind, n);
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  IF ok = nk THEN
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
    VALUES (NEW.workspace_id, rev, base + 1, entry_kind, nk, ams_change_owner_id(entry_kind, n), 'update', o, n);
    PERFORM set_config('ams.seq', (base + 1)::text, true);
  ELSE
    INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
    VALUES (OLD.workspace_id, rev, base + 1, entry_kind, ok, ams_change_owner_id(entry_kind, o), 'delete', o, NULL),
           (NEW.workspace_id, rev, base + 2, entry_kind, nk, ams_change_owner_id(entry_kind, n), 'create', NULL, n);
    PERFORM set_config('ams.seq', (base + 2)::text, true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['elements', 'relationships', 'views', 'view_nodes', 'connections', 'folders',
                           'property_definitions'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_capture_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION ams_capture_update_row()',
                   t || '_capture_update', t);
  END LOOP;
END
$$;
