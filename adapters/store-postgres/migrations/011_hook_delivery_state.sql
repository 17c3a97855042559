-- Where a hook stands with delivery beyond Hiro's status (core/hooks/record.ts, HookDeliveryState):
-- the interruption a resume starts from (its first missed block) and a resume under way. Null when
-- neither is on record, which is every hook written before this migration.
ALTER TABLE hooks ADD COLUMN delivery jsonb;
