import { expect } from 'chai';
import {
  Cl,
  Pc,
  makeUnsignedContractCall,
  makeUnsignedSTXTokenTransfer,
  privateKeyToPublic,
} from '@stacks/transactions';
import { decodeTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import { TEST_KEYS, addressOf } from '../../support/block-builder.js';

const alicePub = String(privateKeyToPublic(TEST_KEYS.alice));
const ALICE = addressOf(TEST_KEYS.alice, 'mainnet');
const BOB = addressOf(TEST_KEYS.bob, 'mainnet');
const POOL = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const mainnet = { network: 'mainnet' as const };

async function transfer() {
  return makeUnsignedSTXTokenTransfer({
    recipient: BOB,
    amount: 1n,
    publicKey: alicePub,
    fee: 1,
    nonce: 1,
    network: 'mainnet',
  });
}

describe('decodePostConditions (through decodeTransaction)', () => {
  it('decodes STX, fungible and non-fungible post-conditions and the mode into the schema shape', async () => {
    const tx = await makeUnsignedContractCall({
      contractAddress: POOL,
      contractName: 'market',
      functionName: 'buy',
      functionArgs: [],
      postConditions: [
        Pc.principal(ALICE).willSendEq(100).ustx(),
        Pc.principal(`${POOL}.vault`).willSendGte(5).ft(`${POOL}.token`, 'alex'),
        Pc.origin().willNotSendAsset().nft(`${POOL}.punks::punk`, Cl.uint(143)),
      ],
      postConditionMode: 'deny',
      publicKey: alicePub,
      fee: 1,
      nonce: 1,
      network: 'mainnet',
    });
    const asset = { contract_address: POOL, contract_name: 'token', asset_name: 'alex' };
    expect(decodeTransaction(tx.serialize(), mainnet).post_conditions).to.deep.equal({
      mode: 'deny',
      post_conditions: [
        {
          type: 'stx',
          condition_code: 'sent_equal_to',
          amount: '100',
          principal: { type_id: 'principal_standard', address: ALICE },
        },
        {
          type: 'fungible',
          condition_code: 'sent_greater_than_or_equal_to',
          amount: '5',
          principal: { type_id: 'principal_contract', contract_name: 'vault', address: POOL },
          asset,
        },
        {
          type: 'non_fungible',
          condition_code: 'not_sent',
          principal: { type_id: 'principal_origin' },
          asset: { contract_address: POOL, contract_name: 'punks', asset_name: 'punk' },
          asset_value: { hex: `0x${Cl.serialize(Cl.uint(143))}`, repr: 'u143' },
        },
      ],
    });
  });

  it('reports the mode even when there are no post-conditions', async () => {
    const tx = await transfer();
    expect(decodeTransaction(tx.serialize(), mainnet).post_conditions).to.deep.equal({
      mode: 'deny',
      post_conditions: [],
    });
    const allow = await makeUnsignedContractCall({
      contractAddress: POOL,
      contractName: 'market',
      functionName: 'buy',
      functionArgs: [],
      postConditionMode: 'allow',
      publicKey: alicePub,
      fee: 1,
      nonce: 1,
      network: 'mainnet',
    });
    expect(decodeTransaction(allow.serialize(), mainnet).post_conditions.mode).to.equal('allow');
  });
});
