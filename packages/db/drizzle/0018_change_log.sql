CREATE TABLE "change_entries" (
	"workspace_id" uuid NOT NULL,
	"revision" bigint NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"object_id" text NOT NULL,
	"owner_id" text,
	"op" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "change_entries_workspace_id_revision_seq_pk" PRIMARY KEY("workspace_id","revision","seq"),
	CONSTRAINT "change_entries_kind_check" CHECK (kind in ('element', 'relationship', 'view', 'node', 'connection', 'folder', 'property_definition', 'property_value', 'model')),
	CONSTRAINT "change_entries_op_check" CHECK (op in ('create', 'update', 'delete'))
);
--> statement-breakpoint
CREATE TABLE "change_groups" (
	"workspace_id" uuid NOT NULL,
	"revision" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"via_kind" text NOT NULL,
	"via_name" text,
	"request_id" text,
	"summary" text NOT NULL,
	CONSTRAINT "change_groups_workspace_id_revision_pk" PRIMARY KEY("workspace_id","revision"),
	CONSTRAINT "change_groups_via_kind_check" CHECK (via_kind in ('browser', 'api_token', 'mcp', 'import', 'system'))
);
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "elements" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "folders" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "property_definitions" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "property_values" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "relationships" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "view_nodes" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "revision" bigint DEFAULT coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "change_groups" ADD CONSTRAINT "change_groups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_entries_object_idx" ON "change_entries" USING btree ("workspace_id","kind","object_id","revision");--> statement-breakpoint
CREATE INDEX "change_entries_owner_idx" ON "change_entries" USING btree ("workspace_id","owner_id","revision") WHERE owner_id is not null;--> statement-breakpoint
-- The change log's capture: every insert, update and delete of workspace content is recorded as change entries of
-- the transaction's open change group (packages/model/src/history/change.ts opens it: ams.revision and
-- ams.workspace are transaction-local settings). Statement-level triggers with transition tables: one INSERT of
-- entries per statement however many rows it touched (an import of 100k elements is one statement per chunk).
-- A write with no open group is refused, so no code path can change content unrecorded; the exceptions are rows
-- whose workspace is being deleted (they go with it, by foreign-key cascade) and a transaction that turned capture
-- off (ams.capture = 'off': migrations and benchmarks' baselines only).
CREATE FUNCTION ams_change_kind(tbl text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE tbl
    WHEN 'elements' THEN 'element' WHEN 'relationships' THEN 'relationship' WHEN 'views' THEN 'view'
    WHEN 'view_nodes' THEN 'node' WHEN 'connections' THEN 'connection' WHEN 'folders' THEN 'folder'
    WHEN 'property_definitions' THEN 'property_definition' WHEN 'property_values' THEN 'property_value' END
$$;
--> statement-breakpoint
-- An object's key in the log: its id; a property value (keyed by owner and position) is "<owner id>/<ord>".
CREATE FUNCTION ams_change_object_id(kind text, j jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind WHEN 'property_value' THEN (j->>'owner_id') || '/' || (j->>'ord') ELSE j->>'id' END
$$;
--> statement-breakpoint
-- Whose history an entry also belongs to: a node's or connection's view, a property value's owner, the concept a
-- folder entry refers to.
CREATE FUNCTION ams_change_owner_id(kind text, j jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'node' THEN j->>'view_id' WHEN 'connection' THEN j->>'view_id'
    WHEN 'property_value' THEN nullif(j->>'owner_id', '') WHEN 'folder' THEN j->>'ref_id' END
$$;
--> statement-breakpoint
-- The open group's revision, or NULL when the rows may change unrecorded (see above); raises otherwise.
-- rows_ws: the workspaces of the changed rows.
CREATE FUNCTION ams_change_revision(tbl text, rows_ws uuid[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  rev bigint := nullif(current_setting('ams.revision', true), '')::bigint;
  ws uuid;
BEGIN
  IF rows_ws IS NULL OR cardinality(rows_ws) = 0 THEN
    RETURN NULL;
  END IF;
  IF rev IS NULL THEN
    IF coalesce(current_setting('ams.capture', true), '') = 'off' THEN
      RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ANY (rows_ws)) THEN
      RETURN NULL; -- the workspace itself is being deleted: its content goes with it
    END IF;
    RAISE EXCEPTION USING
      ERRCODE = 'object_not_in_prerequisite_state',
      MESSAGE = format('A change to %s outside a change group: workspace content changes only through withChange '
                       '(packages/model/src/history), which records it in the change log', tbl);
  END IF;
  ws := current_setting('ams.workspace')::uuid;
  IF cardinality(rows_ws) > 1 OR rows_ws[1] <> ws THEN
    RAISE EXCEPTION USING
      ERRCODE = 'object_not_in_prerequisite_state',
      MESSAGE = format('A change to %s of another workspace than the open change group''s (%s)', tbl, ws);
  END IF;
  RETURN rev;
END
$$;
--> statement-breakpoint
CREATE FUNCTION ams_capture_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
  SELECT x.workspace_id, rev, base + (row_number() OVER ())::int, entry_kind, ams_change_object_id(entry_kind, x.j),
         ams_change_owner_id(entry_kind, x.j), 'create', NULL, x.j
  FROM (SELECT n.workspace_id, to_jsonb(n) - 'workspace_id' - 'revision' AS j FROM new_rows n) x;
  GET DIAGNOSTICS added = ROW_COUNT;
  PERFORM set_config('ams.seq', (base + added)::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION ams_capture_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_kind text := ams_change_kind(TG_TABLE_NAME);
  rev bigint := ams_change_revision(TG_TABLE_NAME, ARRAY(SELECT DISTINCT o.workspace_id FROM old_rows o));
  base int;
  added int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int;
  INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
  SELECT x.workspace_id, rev, base + (row_number() OVER ())::int, entry_kind, ams_change_object_id(entry_kind, x.j),
         ams_change_owner_id(entry_kind, x.j), 'delete', x.j, NULL
  FROM (SELECT o.workspace_id, to_jsonb(o) - 'workspace_id' - 'revision' AS j FROM old_rows o) x;
  GET DIAGNOSTICS added = ROW_COUNT;
  PERFORM set_config('ams.seq', (base + added)::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Old and new rows are paired by the object's key; rows an update left as they were are not recorded.
CREATE FUNCTION ams_capture_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
         CASE WHEN o.j IS NULL THEN 'create' WHEN n.j IS NULL THEN 'delete' ELSE 'update' END, o.j, n.j
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
-- An updated row carries the open group's revision (a row left as it was keeps its own).
CREATE FUNCTION ams_stamp_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    NEW.revision := coalesce(nullif(current_setting('ams.revision', true), '')::bigint, OLD.revision);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['elements', 'relationships', 'views', 'view_nodes', 'connections', 'folders',
                           'property_definitions', 'property_values'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_capture_insert()', t || '_capture_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_capture_update()', t || '_capture_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                   'FOR EACH STATEMENT EXECUTE FUNCTION ams_capture_delete()', t || '_capture_delete', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION ams_stamp_revision()',
                   t || '_stamp_revision', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The model's own data (workspaces.model: its name, documentation, metadata; an import replaces it) is content too.
CREATE FUNCTION ams_capture_model() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rev bigint := ams_change_revision('workspaces.model', ARRAY[NEW.id]);
  base int;
BEGIN
  IF rev IS NULL THEN
    RETURN NULL;
  END IF;
  base := coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int + 1;
  INSERT INTO change_entries (workspace_id, revision, seq, kind, object_id, owner_id, op, before, after)
  VALUES (NEW.id, rev, base, 'model', NEW.id::text, NULL, 'update', OLD.model, NEW.model);
  PERFORM set_config('ams.seq', base::text, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER workspaces_capture_model AFTER UPDATE OF model ON workspaces
  FOR EACH ROW WHEN (OLD.model IS DISTINCT FROM NEW.model) EXECUTE FUNCTION ams_capture_model();
--> statement-breakpoint
-- A deleted workspace takes its change log with it (change_groups by foreign key; entries have none, see schema).
CREATE FUNCTION ams_delete_change_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM change_entries e USING old_rows o WHERE e.workspace_id = o.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER workspaces_delete_change_entries AFTER DELETE ON workspaces
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_delete_change_entries();
