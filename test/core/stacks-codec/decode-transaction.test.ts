import { expect } from 'chai';
import {
  AddressHashMode,
  AddressVersion,
  Cl,
  ClarityVersion,
  StacksTransactionWire,
  TenureChangeCause,
  addressFromPublicKeys,
  addressToString,
  createCoinbasePayload,
  createNakamotoCoinbasePayload,
  createPoisonPayload,
  createSingleSigSpendingCondition,
  createSmartContractPayload,
  createStacksPublicKey,
  createStandardAuth,
  createTenureChangePayload,
  deserializeTransaction,
  makeSTXTokenTransfer,
  makeUnsignedContractCall,
  makeUnsignedSTXTokenTransfer,
  privateKeyToPublic,
  sponsorTransaction,
  type PayloadInput,
} from '@stacks/transactions';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import { decodeTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import { TEST_KEYS, addressOf } from '../../support/block-builder.js';

const alicePub = String(privateKeyToPublic(TEST_KEYS.alice));
const bobPub = String(privateKeyToPublic(TEST_KEYS.bob));
const ALICE = addressOf(TEST_KEYS.alice, 'mainnet');
const ALICE_TESTNET = addressOf(TEST_KEYS.alice, 'testnet');
const BOB = addressOf(TEST_KEYS.bob, 'mainnet');
const POOL = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const mainnet = { network: 'mainnet' as const };

/** A raw transaction (hex) with alice's single-sig origin and any payload. */
function rawWith(payload: PayloadInput, nonce = 5): string {
  const auth = createStandardAuth(
    createSingleSigSpendingCondition(AddressHashMode.P2PKH, alicePub, nonce, 0),
  );
  return `0x${new StacksTransactionWire({ payload, auth, network: 'mainnet' }).serialize()}`;
}

async function transfer(options: { memo?: string; fee?: number; nonce?: number } = {}) {
  return makeUnsignedSTXTokenTransfer({
    recipient: BOB,
    amount: 1234n,
    memo: options.memo,
    publicKey: alicePub,
    fee: options.fee ?? 180,
    nonce: options.nonce ?? 7,
    network: 'mainnet',
  });
}

describe('decodeTransaction', () => {
  describe('origin, fee and nonce', () => {
    it("builds the sender's SP address from the spending condition on mainnet", async () => {
      const tx = await transfer();
      const decoded = decodeTransaction(`0x${tx.serialize()}`, mainnet);
      expect(decoded).to.include({
        sender_address: ALICE,
        sponsor_address: null,
        sponsored: false,
        fee: '180',
        nonce: 7,
      });
    });

    it("builds the sender's ST address from the same bytes on testnet", async () => {
      const tx = await transfer();
      expect(decodeTransaction(tx.serialize(), { network: 'testnet' }).sender_address).to.equal(
        ALICE_TESTNET,
      );
    });

    it('builds an SM address for a multi-sig origin', async () => {
      const tx = await makeUnsignedSTXTokenTransfer({
        recipient: BOB,
        amount: 1n,
        publicKeys: [alicePub, bobPub],
        numSignatures: 2,
        fee: 300,
        nonce: 0,
        network: 'mainnet',
      });
      const expected = addressToString(
        addressFromPublicKeys(AddressVersion.MainnetMultiSig, AddressHashMode.P2SH, 2, [
          createStacksPublicKey(alicePub),
          createStacksPublicKey(bobPub),
        ]),
      );
      expect(expected.startsWith('SM')).to.equal(true);
      expect(decodeTransaction(tx.serialize(), mainnet).sender_address).to.equal(expected);
    });

    it("names the sponsor and reports the sponsor's fee for a sponsored transaction", async () => {
      const origin = await makeSTXTokenTransfer({
        recipient: BOB,
        amount: 1n,
        senderKey: TEST_KEYS.alice,
        fee: 0,
        nonce: 3,
        sponsored: true,
        network: 'mainnet',
      });
      const tx = await sponsorTransaction({
        transaction: origin,
        sponsorPrivateKey: TEST_KEYS.bob,
        fee: 999,
        sponsorNonce: 8,
      });
      expect(decodeTransaction(tx.serialize(), mainnet)).to.include({
        sender_address: ALICE,
        sponsor_address: BOB,
        sponsored: true,
        fee: '999',
        nonce: 3,
      });
    });
  });

  describe('payloads', () => {
    it('reads an STX transfer with its recipient, amount and the raw 34 memo bytes', async () => {
      const tx = await transfer({ memo: 'hi' });
      expect(decodeTransaction(tx.serialize(), mainnet).payload).to.deep.equal({
        type: 'token_transfer',
        recipient: BOB,
        amount: '1234',
        memo: `0x6869${'00'.repeat(32)}`,
      });
    });

    it('reads a contract call with each argument as hex, repr and inferred type, unnamed without an ABI', async () => {
      const tx = await makeUnsignedContractCall({
        contractAddress: POOL,
        contractName: 'swap-helper',
        functionName: 'swap',
        functionArgs: [Cl.contractPrincipal(POOL, 'token-x'), Cl.uint(5), Cl.none()],
        publicKey: alicePub,
        fee: 1000,
        nonce: 1,
        network: 'mainnet',
      });
      const payload = decodeTransaction(tx.serialize(), mainnet).payload;
      expect(payload).to.deep.equal({
        type: 'contract_call',
        contract_identifier: `${POOL}.swap-helper`,
        function_name: 'swap',
        args: [
          {
            hex: `0x${Cl.serialize(Cl.contractPrincipal(POOL, 'token-x'))}`,
            repr: `'${POOL}.token-x`,
            name: '',
            type: 'principal',
          },
          { hex: `0x${Cl.serialize(Cl.uint(5))}`, repr: 'u5', name: '', type: 'uint' },
          { hex: '0x09', repr: 'none', name: '', type: '(optional UnknownType)' },
        ],
      });
    });

    it("names and types a contract call's arguments from the contract's ABI when known", async () => {
      const abi: ContractAbi = {
        functions: [
          {
            name: 'swap',
            access: 'public',
            args: [
              { name: 'amount', type: 'uint128' },
              { name: 'min-dy', type: { optional: 'uint128' } },
            ],
            outputs: { type: 'bool' },
          },
        ],
      };
      const tx = await makeUnsignedContractCall({
        contractAddress: POOL,
        contractName: 'swap-helper',
        functionName: 'swap',
        functionArgs: [Cl.uint(5), Cl.none()],
        publicKey: alicePub,
        fee: 1000,
        nonce: 1,
        network: 'mainnet',
      });
      const lookupAbi = (id: string) => (id === `${POOL}.swap-helper` ? abi : undefined);
      const payload = decodeTransaction(tx.serialize(), { ...mainnet, lookupAbi }).payload;
      expect(
        payload.type === 'contract_call' && payload.args.map((a) => [a.name, a.type, a.repr]),
      ).to.deep.equal([
        ['amount', 'uint', 'u5'],
        ['min-dy', '(optional uint)', 'none'],
      ]);
    });

    it('reads a versioned deploy as contract_deploy under the sender with its Clarity version and source', () => {
      const raw = rawWith(
        createSmartContractPayload('counter', '(define-data-var n uint u0)', ClarityVersion.Clarity2),
      );
      expect(decodeTransaction(raw, mainnet).payload).to.deep.equal({
        type: 'contract_deploy',
        contract_identifier: `${ALICE}.counter`,
        clarity_version: 2,
        source_code: '(define-data-var n uint u0)',
        abi: null,
      });
    });

    it('reads a plain coinbase without recipient or VRF proof', () => {
      const raw = rawWith(createCoinbasePayload(new Uint8Array(32)));
      expect(decodeTransaction(raw, mainnet).payload).to.deep.equal({
        type: 'coinbase',
        alt_recipient: null,
        vrf_proof: null,
      });
    });

    it('reads the alternative recipient of a coinbase-to-alt-recipient', () => {
      const raw = rawWith(createCoinbasePayload(new Uint8Array(32), Cl.contractPrincipal(POOL, 'miner')));
      expect(decodeTransaction(raw, mainnet).payload).to.include({ alt_recipient: `${POOL}.miner` });
    });

    it('reads the recipient and VRF proof of a Nakamoto coinbase', () => {
      const vrf = new Uint8Array(80).fill(7);
      const raw = rawWith(
        createNakamotoCoinbasePayload(new Uint8Array(32), Cl.some(Cl.standardPrincipal(BOB)), vrf),
      );
      expect(decodeTransaction(raw, mainnet).payload).to.deep.equal({
        type: 'coinbase',
        alt_recipient: BOB,
        vrf_proof: `0x${'07'.repeat(80)}`,
      });
    });

    it('reads a Nakamoto coinbase without recipient as alt_recipient null', () => {
      const raw = rawWith(createNakamotoCoinbasePayload(new Uint8Array(32), Cl.none(), new Uint8Array(80)));
      expect(decodeTransaction(raw, mainnet).payload).to.include({ alt_recipient: null });
    });

    it('reads a tenure change with its hashes and the cause by name', () => {
      const payload = createTenureChangePayload(
        '11'.repeat(20),
        '22'.repeat(20),
        '33'.repeat(20),
        '44'.repeat(32),
        9,
        TenureChangeCause.ExtendedRuntime,
        '55'.repeat(20),
      );
      expect(decodeTransaction(rawWith(payload), mainnet).payload).to.deep.equal({
        type: 'tenure_change',
        tenure_consensus_hash: `0x${'11'.repeat(20)}`,
        prev_tenure_consensus_hash: `0x${'22'.repeat(20)}`,
        burn_view_consensus_hash: `0x${'33'.repeat(20)}`,
        previous_tenure_end: `0x${'44'.repeat(32)}`,
        previous_tenure_blocks: 9,
        cause: 'extended_runtime',
        pubkey_hash: `0x${'55'.repeat(20)}`,
      });
    });

    it('reads both microblock headers of a poison-microblock report, which the library skips', () => {
      const header1 = `01${'aa'.repeat(131)}`;
      const header2 = `01${'bb'.repeat(131)}`;
      const raw = `${rawWith(createPoisonPayload())}${header1}${header2}`;
      expect(decodeTransaction(raw, mainnet).payload).to.deep.equal({
        type: 'poison_microblock',
        microblock_header_1: `0x${header1}`,
        microblock_header_2: `0x${header2}`,
      });
    });
  });

  it('throws on bytes that are not a transaction', () => {
    expect(() => decodeTransaction('0x0102', mainnet)).to.throw();
  });

  it('throws on a contract call cut short inside its arguments or its names', async () => {
    const tx = await makeUnsignedContractCall({
      contractAddress: POOL,
      contractName: 'swap-helper',
      functionName: 'swap',
      functionArgs: [Cl.uint(5), Cl.stringAscii('abc')],
      publicKey: alicePub,
      fee: 1000,
      nonce: 1,
      network: 'mainnet',
    });
    const hex = tx.serialize();
    expect(() => decodeTransaction(hex.slice(0, -2), mainnet)).to.throw(/truncated/);
    const beforeArgs = hex.length - 2 * (4 + 17 + 8);
    expect(() => decodeTransaction(hex.slice(0, beforeArgs - 8), mainnet)).to.throw(/truncated/);
  });

  it('refuses a contract or function name over 128 bytes, as the library does', async () => {
    const tx = await makeUnsignedContractCall({
      contractAddress: POOL,
      contractName: 'swap-helper',
      functionName: 'swap',
      functionArgs: [Cl.uint(5)],
      publicKey: alicePub,
      fee: 1000,
      nonce: 1,
      network: 'mainnet',
    });
    const hex = tx.serialize();
    const name = (text: string) => Buffer.from([text.length, ...Buffer.from(text, 'ascii')]).toString('hex');
    for (const [field, long] of [
      ['swap-helper', 'c'.repeat(129)],
      ['swap', 'f'.repeat(129)],
    ]) {
      const mutated = hex.replace(name(field), name(long));
      expect(mutated).to.not.equal(hex);
      expect(() => deserializeTransaction(mutated)).to.throw();
      expect(() => decodeTransaction(mutated, mainnet)).to.throw(/longer than 128/);
    }
    expect(() => decodeTransaction(hex.replace(name('swap'), name('f'.repeat(128))), mainnet)).to.not.throw();
  });

  it('throws on an STX transfer without its full memo', async () => {
    const hex = (await transfer()).serialize();
    expect(() => decodeTransaction(hex.slice(0, -2), mainnet)).to.throw(/truncated/);
  });
});
