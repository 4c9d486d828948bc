-- Each raise of a user's access counter is also announced (NOTIFY access_versions, payload: the user id), at the
-- commit that raises it. The embedded database (PGlite) hands the announcement to its one process while the
-- committing statement is answered, so that process remembers the counters it read and forgets one when announced,
-- instead of reading the counter on every request (services/control/src/auth/access-versions.ts). On PostgreSQL
-- nothing listens: every replica still reads the counter per request.
CREATE OR REPLACE FUNCTION ams_raise_access_versions(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  raised text;
BEGIN
  INSERT INTO access_versions AS a (user_id, version)
  SELECT DISTINCT u, 1 FROM unnest(ids) AS u WHERE u IS NOT NULL ORDER BY 1
  ON CONFLICT (user_id) DO UPDATE SET version = a.version + 1;
  FOR raised IN SELECT DISTINCT u FROM unnest(ids) AS u WHERE u IS NOT NULL LOOP
    PERFORM pg_notify('access_versions', raised);
  END LOOP;
END
$$;
