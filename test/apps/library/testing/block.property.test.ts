import { expect } from 'chai';
import fc from 'fast-check';
import { arbitraryBlock } from '../../../../apps/library/testing.js';
import { buildOperations } from '../../../../core/chain/operations.js';
import type { TransactionEvent } from '../../../../core/chain/transaction-event.js';
import common from '../../../../spec/schemas/common.json' with { type: 'json' };

const PRINCIPAL = new RegExp(common.$defs.Principal.pattern);
const ASSET = new RegExp(common.$defs.AssetIdentifier.pattern);

/** The principals and assets an event names. */
function identifiers(e: TransactionEvent): { principals: string[]; assets: string[] } {
  switch (e.type) {
    case 'stx_transfer':
      return { principals: [e.sender, e.recipient], assets: [] };
    case 'stx_mint':
      return { principals: [e.recipient], assets: [] };
    case 'stx_burn':
      return { principals: [e.sender], assets: [] };
    case 'stx_lock':
      return { principals: [e.locked_address, e.contract_identifier], assets: [] };
    case 'ft_transfer':
    case 'nft_transfer':
      return { principals: [e.sender, e.recipient], assets: [e.asset_identifier] };
    case 'ft_mint':
    case 'nft_mint':
      return { principals: [e.recipient], assets: [e.asset_identifier] };
    case 'ft_burn':
    case 'nft_burn':
      return { principals: [e.sender], assets: [e.asset_identifier] };
    case 'contract_log':
      return { principals: [e.contract_identifier], assets: [] };
  }
}

describe('arbitraryBlock', () => {
  it('numbers transactions and events as a node does, and counts them in the metadata', () => {
    fc.assert(
      fc.property(arbitraryBlock(), (block) => {
        expect(block.transactions.map((tx) => tx.metadata.position.index)).to.deep.equal(
          block.transactions.map((_, i) => i),
        );
        const eventIndexes = block.transactions.flatMap((tx) => tx.events.map((e) => e.event_index));
        expect(eventIndexes).to.deep.equal(eventIndexes.map((_, i) => i));
        expect(block.metadata.tx_count).to.equal(block.transactions.length);
        expect(block.parent_block_identifier.index).to.equal(block.block_identifier.index - 1);
      }),
    );
  });

  it('gives each transaction the operations buildOperations makes of it, and events committed exactly when it succeeded', () => {
    fc.assert(
      fc.property(arbitraryBlock(), (block) => {
        for (const tx of block.transactions) {
          const { metadata } = tx;
          expect(tx.metadata.type).to.equal(tx.payload.type);
          for (const e of tx.events) expect(e.committed).to.equal(metadata.status === 'success');
          const operations = buildOperations({
            status: metadata.status,
            sender: metadata.sender_address,
            sponsor: metadata.sponsor_address,
            fee: metadata.fee_rate,
            payload: tx.payload,
            abiJson: null,
            events: tx.events,
          });
          expect(tx.operations).to.deep.equal(operations);
          expect(metadata.sponsored).to.equal(metadata.sponsor_address !== null);
        }
      }),
    );
  });

  it('makes payloads agree with the sender and the events', () => {
    fc.assert(
      fc.property(arbitraryBlock(), (block) => {
        for (const tx of block.transactions) {
          const sender = tx.metadata.sender_address;
          if (tx.payload.type === 'token_transfer') {
            expect(tx.events).to.have.length(1);
            expect(tx.events[0]).to.include({
              type: 'stx_transfer',
              sender,
              recipient: tx.payload.recipient,
              amount: tx.payload.amount,
            });
          }
          if (tx.payload.type === 'contract_deploy') {
            expect(tx.payload.contract_identifier.startsWith(`${sender}.`)).to.equal(true);
          }
          if (['coinbase', 'tenure_change', 'poison_microblock'].includes(tx.payload.type)) {
            expect(tx.events).to.deep.equal([]);
          }
        }
      }),
    );
  });

  it('uses principals and assets the schemas accept', () => {
    fc.assert(
      fc.property(arbitraryBlock(), (block) => {
        for (const tx of block.transactions) {
          expect(tx.metadata.sender_address).to.match(PRINCIPAL);
          for (const e of tx.events) {
            const { principals, assets } = identifiers(e);
            for (const p of principals) expect(p).to.match(PRINCIPAL);
            for (const a of assets) expect(a).to.match(ASSET);
          }
        }
      }),
    );
  });

  it('generates every transaction kind, every event type and aborted transactions', () => {
    const kinds = new Set<string>();
    const eventTypes = new Set<string>();
    const statuses = new Set<string>();
    for (const block of fc.sample(arbitraryBlock(), 300)) {
      for (const tx of block.transactions) {
        kinds.add(tx.payload.type);
        statuses.add(tx.metadata.status);
        for (const e of tx.events) eventTypes.add(e.type);
      }
    }
    expect(kinds.size).to.equal(6);
    expect(eventTypes.size).to.equal(11);
    expect([...statuses].sort()).to.deep.equal(['abort_by_post_condition', 'abort_by_response', 'success']);
  });
});
