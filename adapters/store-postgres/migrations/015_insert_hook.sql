-- A registration in one statement: the hook is inserted (its trigger counts it on the owner's row)
-- and refused, rolling the statement back, when that leaves the owner over `max_hooks`. Run as one
-- statement it takes one round trip, and the owner's count row is held from the count to the
-- commit with no round trip between, so an owner's registrations wait on each other only that long.
-- The new hook starts at the live stream's position: FOR SHARE waits out a live step under way, so
-- the hook never counts that step's blocks, which it was not matched against.
CREATE FUNCTION insert_hook(
  new_uuid text, new_owner text, new_created_at_ms bigint, new_definition jsonb, new_status jsonb,
  new_delivery jsonb, max_hooks integer
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hooks (uuid, owner, created_at_ms, definition, status, delivery, live_base)
  VALUES (new_uuid, new_owner, new_created_at_ms, new_definition, new_status, new_delivery,
          (SELECT evaluated FROM live_stream FOR SHARE));
  IF (SELECT hooks FROM hook_counts WHERE owner = new_owner) > max_hooks THEN
    RAISE EXCEPTION 'the owner holds % hooks already', max_hooks USING ERRCODE = 'SH403';
  END IF;
END
$$;
