-- Hooks, API keys and consumer secrets: the state the REST API owns.

-- A hook is stored whole as jsonb (definition and status change shape with the API, and are always
-- read and written whole); the fields that queries select or order by are columns. `webhook_url` and
-- `status_value` are generated from the jsonb so they can never disagree with it.
-- COLLATE "C" orders uuids and owners by code point, as the embedded store does.
CREATE TABLE hooks (
  uuid text COLLATE "C" PRIMARY KEY,
  owner text COLLATE "C" NOT NULL,
  created_at_ms bigint NOT NULL,
  definition jsonb NOT NULL,
  status jsonb NOT NULL,
  webhook_url text GENERATED ALWAYS AS (definition #>> '{action,url}') STORED,
  status_value text GENERATED ALWAYS AS (status ->> 'status') STORED
);

-- Serves an owner's listing (ordered page and total), the per-owner count and bulk selections.
CREATE INDEX hooks_owner_order ON hooks (owner, created_at_ms, uuid);

-- Other processes keep an in-memory index of hooks; tell them which hook changed. Channels are
-- global to the database, so the payload names the schema (`schema:uuid`) for listeners to filter.
CREATE FUNCTION notify_hook_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('stackhooks_hooks', TG_TABLE_SCHEMA || ':' || OLD.uuid);
  ELSE
    PERFORM pg_notify('stackhooks_hooks', TG_TABLE_SCHEMA || ':' || NEW.uuid);
  END IF;
  RETURN NULL;
END
$$;

-- Only what the matcher cares about: the live stream updates every enabled hook's counters on
-- every block, and notifying those would flood every listener.
CREATE TRIGGER hooks_notify_insert_delete
  AFTER INSERT OR DELETE ON hooks
  FOR EACH ROW EXECUTE FUNCTION notify_hook_change();

CREATE TRIGGER hooks_notify_update
  AFTER UPDATE ON hooks
  FOR EACH ROW
  WHEN (
    OLD.definition IS DISTINCT FROM NEW.definition
    OR OLD.status->'status' IS DISTINCT FROM NEW.status->'status'
    OR OLD.status->'enabled' IS DISTINCT FROM NEW.status->'enabled'
  )
  EXECUTE FUNCTION notify_hook_change();

-- `seq` keeps keys created in the same second in the order they were added.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  owner text NOT NULL,
  hash text NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  revoked_at bigint,
  seq bigint GENERATED ALWAYS AS IDENTITY
);

CREATE INDEX api_keys_order ON api_keys (created_at, seq);

CREATE TABLE consumer_secrets (
  owner text PRIMARY KEY,
  secret text NOT NULL
);
