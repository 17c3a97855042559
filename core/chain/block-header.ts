/** The part of a block the chain model needs: its id, its height and its parent's id. */
export type BlockHeader = {
  /** `index_block_hash`, 0x-prefixed lowercase hex: the unique id of a Stacks block. */
  hash: string;
  height: number;
  /** `parent_index_block_hash`. */
  parent_hash: string;
};
