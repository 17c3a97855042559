// normalizeBlock against derived/mainnet-decoded-txs.json: the golden decode of the recorded
// mainnet transactions, made with stacks-encoding-native-js (what the Stacks API and Chainhook use).
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { decodeClarityValue } from '../../../core/stacks-codec/clarity-repr.js';
import { type ClarityValueRepr } from '../../../core/chain/clarity-value.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import { decodeTransaction, type DecodedTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import type { NodeBlock, NodeTransaction } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import type { PostCondition } from '../../../core/chain/post-condition.js';
import { describeWithFixtures, fixturePath, readReplayTsv } from '../../support/fixtures.js';

/** One entry of derived/mainnet-decoded-txs.json (stacks-encoding-native-js's decode). */
type GoldenTx = {
  source: string;
  path: string;
  index_block_hash: string | null;
  txid: string;
  status: string;
  payload_type: string;
  sender: string;
  sponsor: string | null;
  nonce: string;
  fee: string;
  post_condition_mode: number;
  post_conditions: GoldenPostCondition[];
  raw_result: string;
  result_repr: string;
  contract_identifier?: string;
  function_name?: string;
  function_args?: { hex: string; repr: string; type: string }[];
  recipient?: string;
  amount?: string;
  memo_hex?: string;
};
type GoldenPostCondition = {
  asset_info_id: 0 | 1 | 2;
  principal: { type_id: 1 | 2 | 3; address?: string; contract_name?: string };
  condition_name: string;
  amount?: string;
  asset?: { contract_address: string; contract_name: string; asset_name: string };
  asset_value?: { hex: string; repr: string };
};

/** What one transaction decode says, from the normalized block or from the decode step alone. */
type Decoded = { txid: string; status: string; result: ClarityValueRepr; decoded: DecodedTransaction };

function fromNormalized(tx: NormalizedTransaction): Decoded {
  const m = tx.metadata;
  return {
    txid: tx.transaction_identifier.hash,
    status: m.status,
    result: m.result,
    decoded: {
      sender_address: m.sender_address,
      sponsor_address: m.sponsor_address,
      sponsored: m.sponsored,
      fee: m.fee_rate,
      nonce: m.nonce,
      post_conditions: m.post_conditions,
      payload: tx.payload,
    },
  };
}

/**
 * The fields the golden file and stackhooks share, in stackhooks' vocabulary. Not compared:
 * `anchor_mode` and `payload_type_id` (no payload field shows them; `payload_type` covers the
 * kind), and the location fields, which serve to find the transaction.
 */
function normalizedView({ txid, status, result, decoded: d }: Decoded): Record<string, unknown> {
  const p = d.payload;
  return {
    txid,
    status,
    payload_type: p.type,
    sender: d.sender_address,
    sponsor: d.sponsor_address,
    nonce: String(d.nonce),
    fee: d.fee,
    post_condition_mode: d.post_conditions.mode,
    post_conditions: d.post_conditions.post_conditions,
    raw_result: result.hex,
    result_repr: result.repr,
    ...(p.type === 'contract_call'
      ? {
          contract_identifier: p.contract_identifier,
          function_name: p.function_name,
          function_args: p.args.map(({ hex, repr, type }) => ({ hex, repr, type })),
        }
      : {}),
    ...(p.type === 'contract_deploy' ? { contract_identifier: p.contract_identifier } : {}),
    ...(p.type === 'token_transfer' ? { recipient: p.recipient, amount: p.amount, memo_hex: p.memo } : {}),
  };
}

const GOLDEN_KINDS: Record<string, string> = {
  TokenTransfer: 'token_transfer',
  ContractCall: 'contract_call',
  SmartContract: 'contract_deploy',
  Coinbase: 'coinbase',
  PoisonMicroblock: 'poison_microblock',
};

/**
 * The golden entry in the payload's vocabulary. The golden file encodes post-conditions the way
 * stacks-encoding-native-js does (numeric `asset_info_id`, principal `type_id` 1/2/3 with address
 * version and hash bytes, numeric mode); the payload schema names them (`type: "fungible"`,
 * `type_id: "principal_contract"`, mode `"deny"`). The mapping is one to one, so mapping the
 * golden side and comparing exactly checks every decoded field.
 */
function goldenView(g: GoldenTx): Record<string, unknown> {
  const kind = GOLDEN_KINDS[g.payload_type] ?? g.payload_type;
  return {
    txid: g.txid,
    status: g.status,
    payload_type: kind,
    sender: g.sender,
    sponsor: g.sponsor,
    nonce: g.nonce,
    fee: g.fee,
    post_condition_mode: ({ 1: 'allow', 2: 'deny', 3: 'originator' } as Record<number, string>)[
      g.post_condition_mode
    ],
    post_conditions: g.post_conditions.map(goldenPostCondition),
    raw_result: g.raw_result,
    result_repr: g.result_repr,
    ...(kind === 'contract_call'
      ? {
          contract_identifier: g.contract_identifier,
          function_name: g.function_name,
          function_args: g.function_args,
        }
      : {}),
    ...(kind === 'contract_deploy' ? { contract_identifier: g.contract_identifier } : {}),
    ...(kind === 'token_transfer' ? { recipient: g.recipient, amount: g.amount, memo_hex: g.memo_hex } : {}),
  };
}

function goldenPostCondition(pc: GoldenPostCondition): PostCondition {
  const principal =
    pc.principal.type_id === 1
      ? { type_id: 'principal_origin' as const }
      : pc.principal.type_id === 2
        ? { type_id: 'principal_standard' as const, address: pc.principal.address! }
        : {
            type_id: 'principal_contract' as const,
            contract_name: pc.principal.contract_name!,
            address: pc.principal.address!,
          };
  const code = pc.condition_name as never;
  if (pc.asset_info_id === 0) return { type: 'stx', condition_code: code, amount: pc.amount!, principal };
  if (pc.asset_info_id === 1)
    return { type: 'fungible', condition_code: code, amount: pc.amount!, principal, asset: pc.asset! };
  return {
    type: 'non_fungible',
    condition_code: code,
    principal,
    asset: pc.asset!,
    asset_value: { hex: pc.asset_value!.hex, repr: pc.asset_value!.repr },
  };
}

describeWithFixtures('normalizeBlock against the golden decode (derived/mainnet-decoded-txs.json)', () => {
  const golden = JSON.parse(
    readFileSync(fixturePath('derived/mainnet-decoded-txs.json'), 'utf8'),
  ) as GoldenTx[];
  const present = (source: string) => existsSync(fixturePath(`stacks-blockchain-api/${source}`));
  const decoded = new Map<string, Record<string, unknown>>();
  const key = (source: string, path: string, blockHash: string | null, txid: string) =>
    `${source}|${path}|${blockHash ?? ''}|${txid}`;

  before(async () => {
    for (const source of new Set(golden.map((g) => g.source))) {
      if (!present(source)) continue;
      // Each recording is normalized on its own, as a chain of its own: no ABI from another file,
      // so argument types stay the ones inferred from the values, as in the golden file.
      const known = new Map<string, ContractAbi>();
      for await (const request of readReplayTsv(`stacks-blockchain-api/${source}`)) {
        if (request.path === '/new_block') {
          const body = request.body as NodeBlock;
          const { block, contracts } = normalizeBlock(body, {
            network: 'mainnet',
            lookupAbi: (id) => known.get(id),
          });
          for (const c of contracts) if (c.abi) known.set(c.contract_identifier, c.abi);
          for (const tx of block.transactions) {
            decoded.set(
              key(source, request.path, body.index_block_hash, tx.transaction_identifier.hash),
              normalizedView(fromNormalized(tx)),
            );
          }
        } else if (request.path === '/new_microblocks') {
          // Microblock transactions the golden file lists on their own; some never reach a
          // /new_block of the recording, so they are checked at the decode step.
          for (const tx of (request.body as { transactions: NodeTransaction[] }).transactions) {
            const d = decodeTransaction(tx.raw_tx, { network: 'mainnet' });
            const result = decodeClarityValue(tx.raw_result);
            decoded.set(
              key(source, request.path, null, tx.txid),
              normalizedView({ txid: tx.txid, status: tx.status, result, decoded: d }),
            );
          }
        }
      }
    }
  });

  for (const source of new Set(golden.map((g) => g.source))) {
    const entries = golden.filter((g) => g.source === source);
    if (!present(source)) {
      it(`is skipped for ${source}: not among the fixtures (${entries.length} golden entries)`);
      continue;
    }
    entries.forEach((entry, i) => {
      it(`decodes ${source} entry ${i} (${entry.txid.slice(0, 12)}…, ${entry.payload_type}) like the golden file`, () => {
        const ours = decoded.get(key(source, entry.path, entry.index_block_hash, entry.txid));
        expect(ours, 'transaction found in the recording').to.not.equal(undefined);
        expect(ours).to.deep.equal(goldenView(entry));
      });
    });
  }
});
