import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { makeSTXTokenTransfer, privateKeyToAddress } from '@stacks/transactions';
import type { Network } from '../../core/hooks/definition.js';

// Demo keys, public on purpose: these accounts exist only in example chains.
const DEMO_SENDER_KEY = 'edf9aee84d9b7abc145504dde6726c64f369d37ee34ded868fabd876c26570bc01';
const DEMO_RECIPIENT_KEY = '6a1a754ba863d7bab14adbbc3f8ebb090af9e871ace621d3e5ab634e1422885e01';

const hashOf = (...parts: (string | number)[]) =>
  `0x${createHash('sha256').update(parts.join('/')).digest('hex')}`;
const ZERO_COST = { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 };

/** The demo accounts, so a quick start can filter on them. */
export function exampleAccounts(network: Network): { sender: string; recipient: string } {
  return {
    sender: privateKeyToAddress(DEMO_SENDER_KEY, network),
    recipient: privateKeyToAddress(DEMO_RECIPIENT_KEY, network),
  };
}

/**
 * Write an event-replay TSV of a small chain for demos: `blocks` node-format `/new_block` bodies,
 * each with one real signed STX transfer between the demo accounts (and its transfer event).
 */
export async function writeExampleChain(file: string, blocks: number, network: Network): Promise<void> {
  const { sender, recipient } = exampleAccounts(network);
  const out = createWriteStream(file);
  let parent = hashOf('example', 'root');
  for (let height = 1; height <= blocks; height++) {
    const wire = await makeSTXTokenTransfer({
      recipient,
      amount: 1_000n * BigInt(height),
      senderKey: DEMO_SENDER_KEY,
      network,
      nonce: BigInt(height - 1),
      fee: 180n,
    });
    const txid = `0x${wire.txid()}`;
    const hash = hashOf('example', 'index', height);
    const block = {
      block_hash: hashOf('example', 'block', height),
      block_height: height,
      index_block_hash: hash,
      parent_block_hash: hashOf('example', 'block', height - 1),
      parent_index_block_hash: parent,
      burn_block_hash: hashOf('example', 'burn', height),
      burn_block_height: 800_000 + height,
      burn_block_time: 1_700_000_000 + height * 600,
      parent_burn_block_hash: hashOf('example', 'burn', height - 1),
      parent_burn_block_height: 800_000 + height - 1,
      parent_burn_block_timestamp: 1_700_000_000 + (height - 1) * 600,
      miner_txid: hashOf('example', 'miner', height),
      parent_microblock: `0x${'0'.repeat(64)}`,
      parent_microblock_sequence: 0,
      matured_miner_rewards: [],
      anchored_cost: ZERO_COST,
      confirmed_microblocks_cost: ZERO_COST,
      transactions: [
        {
          txid,
          tx_index: 0,
          raw_tx: `0x${wire.serialize()}`,
          status: 'success',
          raw_result: '0x0703',
          execution_cost: ZERO_COST,
          contract_abi: null,
          vm_error: null,
          microblock_hash: null,
          microblock_sequence: null,
          microblock_parent_hash: null,
        },
      ],
      events: [
        {
          txid,
          event_index: 0,
          committed: true,
          type: 'stx_transfer_event',
          stx_transfer_event: { sender, recipient, amount: String(1_000 * height), memo: '' },
        },
      ],
    };
    const stamp = new Date((1_700_000_000 + height * 600) * 1000).toISOString();
    if (!out.write(`${height}\t${stamp}\t/new_block\t${JSON.stringify(block)}\n`)) await once(out, 'drain');
    parent = hash;
  }
  out.end();
  await once(out, 'finish');
}
