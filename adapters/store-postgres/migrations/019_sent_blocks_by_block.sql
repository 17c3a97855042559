-- A live step remembers a row here for every hook a block reached (adapters/store-postgres/
-- outbox-sent-blocks.ts), and each row went into three indexes: the key (hook, block), the block's
-- own index for rollbacks, and the hook's age order for trims. One index keyed (block, hook) serves
-- both the key and the rollbacks' reads by block, and a step's rows all go to one place in it (they
-- share their block), where (hook, block) put each at a random place. The age order (hook, seq)
-- stays: trims and a hook's removal read by hook.
CREATE UNIQUE INDEX outbox_sent_blocks_by_block ON outbox_sent_blocks (block_hash, hook_uuid);
ALTER TABLE outbox_sent_blocks
  DROP CONSTRAINT outbox_sent_blocks_pkey,
  ADD CONSTRAINT outbox_sent_blocks_pkey PRIMARY KEY USING INDEX outbox_sent_blocks_by_block;
DROP INDEX outbox_sent_blocks_block;
