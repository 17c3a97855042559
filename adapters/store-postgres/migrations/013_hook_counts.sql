-- How many hooks each owner holds, kept by triggers so any insert or delete (the API's, a bulk load's)
-- keeps it exact. An insert checks the owner's limit against this one row instead of counting the
-- owner's hooks, and an owner's concurrent inserts wait on each other only from their row's update
-- to their commit. The unfiltered listing reads its total here too.
CREATE TABLE hook_counts (
  owner text COLLATE "C" PRIMARY KEY,
  hooks integer NOT NULL CHECK (hooks >= 0)
);

CREATE FUNCTION count_hook_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hook_counts AS counted (owner, hooks) VALUES (NEW.owner, 1)
      ON CONFLICT (owner) DO UPDATE SET hooks = counted.hooks + 1;
  ELSE
    UPDATE hook_counts SET hooks = hooks - 1 WHERE owner = OLD.owner;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER hooks_count_insert_delete
  AFTER INSERT OR DELETE ON hooks
  FOR EACH ROW EXECUTE FUNCTION count_hook_change();

-- Writers of an older version still running wait here, so the backfill counts every hook they add.
LOCK TABLE hooks IN SHARE MODE;
INSERT INTO hook_counts (owner, hooks) SELECT owner, count(*) FROM hooks GROUP BY owner;
