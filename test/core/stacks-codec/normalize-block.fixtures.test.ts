// normalizeBlock against the real recorded node traffic in ../shared/fixtures.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { ChainNetwork } from '../../../core/stacks-codec/network.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock, type NormalizedBlockResult } from '../../../core/stacks-codec/normalize-block.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { NODE_RECORDINGS, describeWithFixtures, fixturePath, readReplayTsv } from '../../support/fixtures.js';

const NODE_FILES = NODE_RECORDINGS;
const SYNTHETIC_DIR = 'stacks-blockchain-api/synthetic-tx-payloads';

/**
 * A payload block in the two extreme option sets: every option on (decoded values, ABI, source,
 * post-conditions, raw transactions, metadata with signatures), or every option off. Only a test
 * stand-in for payload shaping (a later issue): it shows that the normalized block holds what
 * both need, in shapes the schema accepts.
 */
function project(block: NormalizedBlock, allOptions: boolean): object {
  return {
    block_identifier: block.block_identifier,
    parent_block_identifier: block.parent_block_identifier,
    timestamp: block.timestamp,
    transactions: block.transactions.map((tx) => {
      const { raw_tx, post_conditions, result, ...metadata } = tx.metadata;
      return {
        transaction_identifier: tx.transaction_identifier,
        operations: tx.operations.map((op) => {
          if (op.type === 'contract_log') {
            const { hex, repr } = op.metadata.value;
            return { ...op, metadata: { ...op.metadata, value: allOptions ? { hex, repr } : hex } };
          }
          if (op.type === 'contract_call' && !allOptions) {
            const args = op.metadata.args.length
              ? `0x${op.metadata.args.map((a) => a.hex.slice(2)).join('')}`
              : null;
            return { ...op, metadata: { ...op.metadata, args } };
          }
          if (op.type === 'contract_deploy') {
            const { abi, source_code, ...rest } = op.metadata;
            return { ...op, metadata: allOptions ? { ...rest, source_code, ...(abi ? { abi } : {}) } : rest };
          }
          return op;
        }),
        metadata: {
          ...metadata,
          result: allOptions ? { hex: result.hex, repr: result.repr } : result.hex,
          canonical: true,
          microblock_canonical: true,
          ...(allOptions ? { raw_tx, post_conditions } : {}),
        },
      };
    }),
    ...(allOptions ? { metadata: { ...block.metadata, canonical: true } } : {}),
  };
}

/** Normalizes a file's blocks in order, feeding the ABI lookup with earlier blocks' deploys. */
async function normalizeFile(
  file: string,
  network: ChainNetwork,
  known = new Map<string, ContractAbi>(),
): Promise<{ body: NodeBlock; result: NormalizedBlockResult }[]> {
  const out: { body: NodeBlock; result: NormalizedBlockResult }[] = [];
  for await (const request of readReplayTsv(file)) {
    if (request.path !== '/new_block') continue;
    const body = request.body as NodeBlock;
    const result = normalizeBlock(body, { network, lookupAbi: (id) => known.get(id) });
    for (const contract of result.contracts)
      if (contract.abi) known.set(contract.contract_identifier, contract.abi);
    out.push({ body, result });
  }
  return out;
}

describeWithFixtures('normalizeBlock on every recorded node block', () => {
  for (const { file, network } of NODE_FILES) {
    it(`normalizes every /new_block of ${file} in file order`, async () => {
      const blocks = await normalizeFile(file, network);
      expect(blocks.length).to.be.greaterThan(0);
      for (const { body, result } of blocks) {
        expect(result.block.transactions.map((t) => t.transaction_identifier.hash)).to.deep.equal(
          body.transactions.map((t) => t.txid),
        );
      }
    });
  }

  it("projects every recorded block into payloads the client's ChainhookEventSchema accepts, options all on or all off", async () => {
    let blocks = 0;
    for (const { file, network } of NODE_FILES) {
      for (const { result } of await normalizeFile(file, network)) {
        for (const allOptions of [true, false]) {
          const event = {
            chainhook: { uuid: '00000000-0000-4000-8000-000000000000', name: 'all' },
            event: { chain: 'stacks', network, apply: [project(result.block, allOptions)], rollback: [] },
          };
          expect(
            validateChainhookEvent(event).slice(0, 3),
            `${file} ${result.block.block_identifier.hash}`,
          ).to.deep.equal([]);
        }
        blocks++;
      }
    }
    expect(blocks).to.be.greaterThan(0);
  });

  it('normalizes every synthetic-tx-payloads block', () => {
    const dir = fixturePath(SYNTHETIC_DIR);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).to.have.length.greaterThan(0);
    for (const f of files) {
      const body = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as NodeBlock;
      const { block } = normalizeBlock(body, { network: 'mainnet', lookupAbi: () => undefined });
      expect(block.transactions, f).to.have.length(body.transactions.length);
    }
  });

  for (const file of ['epoch-3-transition.tsv.gz', 'regtest-env-pox-4-stack-stx-in-reward-phase-S3.tsv.gz']) {
    it(`names the arguments of calls to contracts deployed earlier in ${file} from their ABIs`, async () => {
      const known = new Map<string, ContractAbi>();
      const blocks = await normalizeFile(`stacks-blockchain-api/${file}`, 'testnet', known);
      let checked = 0;
      for (const { result } of blocks) {
        for (const tx of result.block.transactions) {
          if (tx.payload.type !== 'contract_call' || !known.has(tx.payload.contract_identifier)) continue;
          const { function_name: fn, args } = tx.payload;
          const abiFn = known.get(tx.payload.contract_identifier)!.functions.find((f) => f.name === fn);
          if (!abiFn || abiFn.args.length !== args.length) continue;
          expect(args.map((a) => a.name)).to.deep.equal(abiFn.args.map((a) => a.name));
          checked++;
        }
      }
      expect(checked, 'calls to in-file contracts').to.be.greaterThan(0);
    });
  }

  it('names pox stack-stx arguments in later mainnet blocks from the genesis ABI', async () => {
    const known = new Map<string, ContractAbi>();
    await normalizeFile('stacks-blockchain-api/mainnet-block0.tsv', 'mainnet', known);
    const blocks = await normalizeFile('stacks-blockchain-api/mainnet-reorg-scenario1.tsv', 'mainnet', known);
    const calls = blocks
      .flatMap(({ result }) => result.block.transactions)
      .flatMap((t) =>
        t.payload.type === 'contract_call' && t.payload.function_name === 'stack-stx' ? [t.payload] : [],
      );
    expect(calls).to.have.length.greaterThan(0);
    for (const call of calls) {
      expect(call.args.map((a) => [a.name, a.type])).to.deep.equal([
        ['amount-ustx', 'uint'],
        ['pox-addr', '(tuple (hashbytes (buff 20)) (version (buff 1)))'],
        ['start-burn-ht', 'uint'],
        ['lock-period', 'uint'],
      ]);
    }
  });

  it('makes no operation from an uncommitted event', async () => {
    let seen = 0;
    for (const { file, network } of NODE_FILES.slice(0, 4)) {
      for (const { result } of await normalizeFile(file, network)) {
        for (const tx of result.block.transactions) {
          if (tx.events.every((e) => e.committed)) continue;
          seen++;
          // Fee, the transaction's own operation (none for an STX transfer), then committed events only.
          const own = tx.payload.type === 'token_transfer' ? 0 : 1;
          const fee = tx.metadata.fee_rate === '0' ? 0 : 1;
          const fromEvents = tx.events
            .filter((e) => e.committed)
            .reduce((n, e) => n + (e.type.endsWith('_transfer') ? 2 : 1), 0);
          expect(tx.operations, tx.transaction_identifier.hash).to.have.length(fee + own + fromEvents);
        }
      }
    }
    expect(seen, 'transactions with uncommitted events').to.be.greaterThan(0);
  });

  it('includes Bitcoin-originated 0x00 transactions with fee "0" and nonce 0', () => {
    const dir = fixturePath(SYNTHETIC_DIR);
    let seen = 0;
    for (const f of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const body = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as NodeBlock;
      const { block } = normalizeBlock(body, { network: 'mainnet', lookupAbi: () => undefined });
      body.transactions.forEach((nodeTx, i) => {
        if (nodeTx.raw_tx !== '0x00') return;
        seen++;
        const tx = block.transactions[i];
        expect(tx.transaction_identifier.hash).to.equal(nodeTx.txid);
        expect(tx.metadata.fee_rate).to.equal('0');
        expect(tx.metadata.nonce).to.equal(0);
        expect(tx.operations.filter((op) => op.type === 'fee')).to.have.length(0);
      });
    }
    expect(seen).to.be.greaterThan(0);
  });
});
