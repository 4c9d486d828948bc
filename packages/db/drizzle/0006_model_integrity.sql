CREATE TABLE "data_repairs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"migration" text NOT NULL,
	"table_name" text NOT NULL,
	"workspace_id" uuid,
	"object_id" text NOT NULL,
	"reason" text NOT NULL,
	"row" text,
	"repaired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "data_repairs_migration_idx" ON "data_repairs" USING btree ("migration");--> statement-breakpoint
CREATE INDEX "folders_ws_ref_idx" ON "folders" USING btree ("workspace_id","ref_id") WHERE ref_id is not null;--> statement-breakpoint
-- Repair: relationships whose source or target no longer exists (left by create/delete races before this
-- migration), and the relationships attached to those, are recorded in data_repairs and removed; so are property
-- values and organization (folder) entries whose element or relationship is gone.
WITH RECURSIVE doomed(workspace_id, id) AS (
  SELECT r.workspace_id, r.id FROM relationships r
  WHERE (NOT EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = r.workspace_id AND e.id = r.source_id)
         AND NOT EXISTS (SELECT 1 FROM relationships s WHERE s.workspace_id = r.workspace_id AND s.id = r.source_id))
     OR (NOT EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = r.workspace_id AND e.id = r.target_id)
         AND NOT EXISTS (SELECT 1 FROM relationships s WHERE s.workspace_id = r.workspace_id AND s.id = r.target_id))
  UNION
  SELECT r.workspace_id, r.id FROM relationships r
  JOIN doomed d ON r.workspace_id = d.workspace_id AND (r.source_id = d.id OR r.target_id = d.id)
),
gone AS (
  DELETE FROM relationships r USING doomed d
  WHERE r.workspace_id = d.workspace_id AND r.id = d.id
  RETURNING r.*
)
INSERT INTO data_repairs (migration, table_name, workspace_id, object_id, reason, "row")
SELECT '0006_model_integrity', 'relationships', g.workspace_id, g.id,
       'source or target did not exist (directly or through another removed relationship)', row_to_json(g)::text
FROM gone g;
--> statement-breakpoint
WITH gone AS (
  DELETE FROM property_values p
  WHERE (p.owner_kind = 'element'
         AND NOT EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = p.workspace_id AND e.id = p.owner_id))
     OR (p.owner_kind = 'relationship'
         AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.workspace_id = p.workspace_id AND r.id = p.owner_id))
  RETURNING p.*
)
INSERT INTO data_repairs (migration, table_name, workspace_id, object_id, reason, "row")
SELECT '0006_model_integrity', 'property_values', g.workspace_id, g.owner_id,
       'property value of a ' || g.owner_kind || ' that did not exist', row_to_json(g)::text
FROM gone g;
--> statement-breakpoint
WITH gone AS (
  DELETE FROM folders f
  WHERE f.ref_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = f.workspace_id AND e.id = f.ref_id)
    AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.workspace_id = f.workspace_id AND r.id = f.ref_id)
    AND NOT EXISTS (SELECT 1 FROM views v WHERE v.workspace_id = f.workspace_id AND v.id = f.ref_id)
  RETURNING f.*
)
INSERT INTO data_repairs (migration, table_name, workspace_id, object_id, reason, "row")
SELECT '0006_model_integrity', 'folders', g.workspace_id, g.ref_id,
       'organization entry of a concept that did not exist', row_to_json(g)::text
FROM gone g;
--> statement-breakpoint
-- A relationship's source and target must name an element or a relationship of the same workspace. A foreign key
-- cannot say "this table or that one", so statement-level triggers do what a foreign key does: the inserting
-- transaction locks the endpoints it names (FOR KEY SHARE, as PostgreSQL's own foreign-key checks do), so a
-- concurrent delete of an endpoint waits for it and then removes the new relationship too; an endpoint already
-- deleted fails the insert with foreign_key_violation. Set-based (transition tables): a bulk insert checks once.
CREATE FUNCTION ams_check_relationship_endpoints() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  bad record;
  bad_id text;
  bad_side text;
  bad_missing text;
  found text[];
BEGIN
  -- A few rows (every REST or MCP write): index lookups per row. Many rows (an import): one set-based pass.
  IF (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 65) few) <= 64 THEN
    FOR r IN SELECT n.workspace_id, n.id, n.source_id, n.target_id FROM new_rows n LOOP
      -- One statement finds and locks element endpoints (the usual case); relationships only when one is missing.
      SELECT coalesce(array_agg(e.id), '{}') INTO found FROM (
        SELECT e.id FROM elements e
        WHERE e.workspace_id = r.workspace_id AND e.id IN (r.source_id, r.target_id) FOR KEY SHARE) e;
      IF NOT (r.source_id = ANY (found) AND r.target_id = ANY (found)) THEN
        SELECT found || coalesce(array_agg(x.id), '{}') INTO found FROM (
          SELECT x.id FROM relationships x
          WHERE x.workspace_id = r.workspace_id AND x.id IN (r.source_id, r.target_id) FOR KEY SHARE) x;
        IF NOT (r.source_id = ANY (found)) THEN
          bad_id := r.id; bad_side := 'source'; bad_missing := r.source_id;
          EXIT;
        END IF;
        IF NOT (r.target_id = ANY (found)) THEN
          bad_id := r.id; bad_side := 'target'; bad_missing := r.target_id;
          EXIT;
        END IF;
      END IF;
    END LOOP;
    IF bad_side IS NOT NULL THEN
      RAISE EXCEPTION USING
        ERRCODE = 'foreign_key_violation',
        MESSAGE = format('The %s ''%s'' of relationship ''%s'' does not exist (it may have been deleted meanwhile)',
                         bad_side, bad_missing, bad_id),
        TABLE = 'relationships',
        CONSTRAINT = 'relationships_endpoints_exist';
    END IF;
    RETURN NULL;
  END IF;
  -- A whole-model import inserts the endpoints in the same transaction: rows no other transaction can see, let alone
  -- delete, so locking them would only cost time. The import says so (transaction-local setting); the existence
  -- check below still runs.
  IF coalesce(current_setting('ams.endpoints_inserted_here', true), '') <> 'on' THEN
    PERFORM 1 FROM elements e
    WHERE (e.workspace_id, e.id) IN (SELECT n.workspace_id, n.source_id FROM new_rows n
                                     UNION SELECT n.workspace_id, n.target_id FROM new_rows n)
    FOR KEY SHARE OF e;
    PERFORM 1 FROM relationships x
    WHERE (x.workspace_id, x.id) IN (SELECT n.workspace_id, n.source_id FROM new_rows n
                                     UNION SELECT n.workspace_id, n.target_id FROM new_rows n)
    FOR KEY SHARE OF x;
  END IF;
  SELECT n.id, CASE WHEN s.ok THEN 'target' ELSE 'source' END AS side,
         CASE WHEN s.ok THEN n.target_id ELSE n.source_id END AS missing
  INTO bad
  FROM new_rows n
  CROSS JOIN LATERAL (SELECT
      EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = n.workspace_id AND e.id = n.source_id)
      OR EXISTS (SELECT 1 FROM relationships x WHERE x.workspace_id = n.workspace_id AND x.id = n.source_id) AS ok) s
  CROSS JOIN LATERAL (SELECT
      EXISTS (SELECT 1 FROM elements e WHERE e.workspace_id = n.workspace_id AND e.id = n.target_id)
      OR EXISTS (SELECT 1 FROM relationships x WHERE x.workspace_id = n.workspace_id AND x.id = n.target_id) AS ok) t
  WHERE NOT s.ok OR NOT t.ok
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING
      ERRCODE = 'foreign_key_violation',
      MESSAGE = format('The %s ''%s'' of relationship ''%s'' does not exist (it may have been deleted meanwhile)',
                       bad.side, bad.missing, bad.id),
      TABLE = 'relationships',
      CONSTRAINT = 'relationships_endpoints_exist';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER relationships_endpoints_on_insert AFTER INSERT ON relationships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_check_relationship_endpoints();
--> statement-breakpoint
CREATE TRIGGER relationships_endpoints_on_update AFTER UPDATE ON relationships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_check_relationship_endpoints();
--> statement-breakpoint
-- The delete side of the same rule: removing an element or a relationship removes the relationships attached to it
-- (recursively, through this trigger firing again), their property values and their folder entries. Runs after
-- the deleting statement, with a fresh snapshot: a relationship committed by a transaction the delete waited for
-- is seen and removed.
CREATE FUNCTION ams_delete_attached_concepts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE TG_TABLE_NAME WHEN 'elements' THEN 'element' ELSE 'relationship' END;
  o record;
  many boolean;
BEGIN
  SELECT count(*) > 64 INTO many FROM (SELECT 1 FROM old_rows LIMIT 65) few;
  IF many IS NULL OR NOT EXISTS (SELECT 1 FROM old_rows) THEN
    RETURN NULL;
  END IF;
  IF NOT many THEN
    -- A few rows (a REST or MCP delete): index lookups per deleted concept.
    FOR o IN SELECT d.workspace_id, d.id FROM old_rows d LOOP
      DELETE FROM relationships r WHERE r.workspace_id = o.workspace_id AND r.source_id = o.id;
      DELETE FROM relationships r WHERE r.workspace_id = o.workspace_id AND r.target_id = o.id;
      DELETE FROM property_values p WHERE p.workspace_id = o.workspace_id AND p.owner_kind = kind AND p.owner_id = o.id;
      DELETE FROM folders f WHERE f.workspace_id = o.workspace_id AND f.ref_id = o.id;
    END LOOP;
    RETURN NULL;
  END IF;
  DELETE FROM relationships r USING old_rows d WHERE r.workspace_id = d.workspace_id AND r.source_id = d.id;
  DELETE FROM relationships r USING old_rows d WHERE r.workspace_id = d.workspace_id AND r.target_id = d.id;
  DELETE FROM property_values p USING old_rows d
  WHERE p.workspace_id = d.workspace_id AND p.owner_kind = kind AND p.owner_id = d.id;
  DELETE FROM folders f USING old_rows d WHERE f.workspace_id = d.workspace_id AND f.ref_id = d.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER elements_delete_attached AFTER DELETE ON elements
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_delete_attached_concepts();
--> statement-breakpoint
CREATE TRIGGER relationships_delete_attached AFTER DELETE ON relationships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ams_delete_attached_concepts();
