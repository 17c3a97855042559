import { expect } from 'chai';
import { Cl, serializeCV } from '@stacks/transactions';
import { createReprCache } from '../../../core/stacks-codec/clarity-repr.js';
import type { NodeEvent } from '../../../core/stacks-codec/node-block.js';
import { normalizeEvent } from '../../../core/stacks-codec/normalize-event.js';

const BOOT = 'SP000000000000000000002Q6VF78';
const ALICE = 'SP2ZP4GJDZJ1FDHTQ963F0292PE9J9752TZJ68F21';
const base = { txid: '0x01', event_index: 4, committed: true };
const normalize = (event: NodeEvent) => normalizeEvent(event, BOOT, createReprCache());

describe('normalizeEvent', () => {
  it('names events as the filters do and keeps the index and committed flag', () => {
    const event = normalize({
      ...base,
      committed: false,
      type: 'stx_mint_event',
      stx_mint_event: { recipient: ALICE, amount: '3' },
    });
    expect(event).to.deep.equal({
      event_index: 4,
      committed: false,
      type: 'stx_mint',
      recipient: ALICE,
      amount: '3',
    });
  });

  it('prefixes an STX transfer memo with 0x, and has null when the node sent none', () => {
    const transfer = (memo?: string): NodeEvent => ({
      ...base,
      type: 'stx_transfer_event',
      stx_transfer_event: {
        sender: ALICE,
        recipient: BOOT,
        amount: '1',
        ...(memo === undefined ? {} : { memo }),
      },
    });
    expect(normalize(transfer('00ff'))).to.include({ memo: '0x00ff' });
    expect(normalize(transfer())).to.include({ memo: null });
  });

  it('reads an unlock height sent as text as a number', () => {
    const lock: NodeEvent = {
      ...base,
      type: 'stx_lock_event',
      stx_lock_event: {
        locked_amount: '5',
        unlock_height: '670250',
        locked_address: ALICE,
        contract_identifier: `${BOOT}.pox-3`,
      },
    };
    expect(normalize(lock)).to.include({ unlock_height: 670250, contract_identifier: `${BOOT}.pox-3` });
  });

  it('attributes a lock without a contract (nodes before 2.1) to pox', () => {
    const lock: NodeEvent = {
      ...base,
      type: 'stx_lock_event',
      stx_lock_event: { locked_amount: '5', unlock_height: 1, locked_address: ALICE },
    };
    expect(normalize(lock)).to.include({ contract_identifier: `${BOOT}.pox` });
  });

  it('decodes the token id of an NFT event', () => {
    const id = Cl.tuple({ name: Cl.bufferFromHex('6c657474'), namespace: Cl.bufferFromHex('627463') });
    const event = normalize({
      ...base,
      type: 'nft_mint_event',
      nft_mint_event: {
        asset_identifier: `${BOOT}.bns::names`,
        raw_value: `0x${serializeCV(id)}`,
        recipient: ALICE,
      },
    });
    expect(event).to.deep.include({
      value: {
        hex: `0x${serializeCV(id)}`,
        repr: '(tuple (name 0x6c657474) (namespace 0x627463))',
        type: '(tuple (name (buff 4)) (namespace (buff 3)))',
      },
    });
  });

  it('makes a print a contract_log with the printed value decoded', () => {
    const event = normalize({
      ...base,
      type: 'contract_event',
      contract_event: {
        contract_identifier: `${BOOT}.bns`,
        topic: 'print',
        raw_value: `0x${serializeCV(Cl.standardPrincipal(ALICE))}`,
      },
    });
    expect(event).to.deep.include({
      type: 'contract_log',
      contract_identifier: `${BOOT}.bns`,
      topic: 'print',
    });
    expect(event && 'value' in event && event.value.repr).to.equal(`'${ALICE}`);
  });

  it('skips an event type it does not know instead of failing', () => {
    const future = { ...base, type: 'stx_unlock_event', stx_unlock_event: {} } as unknown as NodeEvent;
    expect(normalize(future)).to.equal(undefined);
  });
});
