import { expect } from 'chai';
import fc from 'fast-check';
import {
  PayloadType,
  type ClarityValue,
  addressToString,
  deserializeCV,
  deserializeTransaction,
  makeUnsignedContractCall,
  makeUnsignedSTXTokenTransfer,
  privateKeyToPublic,
  serializeCV,
} from '@stacks/transactions';
import { decodeTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import { TEST_KEYS } from '../../support/block-builder.js';
import { address, clarityValue, clarityValueRepr, contractName } from '../../support/clarity-values.js';

const publicKey = String(privateKeyToPublic(TEST_KEYS.alice));
const functionName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[!?]?$/);

// Contract calls and STX transfers are read from the bytes by stackhooks; the library's own
// serialization and decoded values are the reference their fields are checked against.
describe('decodeTransaction (properties)', () => {
  it("reads any contract call's target and each argument's own bytes, repr and type", async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        contractName,
        functionName,
        fc.array(clarityValue, { maxLength: 5 }),
        async (contractAddress, name, fn, args) => {
          const tx = await contractCall(contractAddress, name, fn, args);
          expect(decodeTransaction(tx.serialize(), { network: 'mainnet' }).payload).to.deep.equal({
            type: 'contract_call',
            contract_identifier: `${contractAddress}.${name}`,
            function_name: fn,
            args: args.map((arg) => ({ hex: `0x${serializeCV(arg)}`, ...clarityValueRepr(arg), name: '' })),
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses whatever damaged contract call the library refuses, and agrees with it on any both read', async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        contractName,
        functionName,
        fc.array(clarityValue, { maxLength: 4 }),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        async (contractAddress, name, fn, args, where, byte, cut) => {
          const tx = await contractCall(contractAddress, name, fn, args);
          const hex = tx.serialize();
          // Damage the payload and post-conditions (byte 100 on; the authorization is the library's).
          const at = 2 * (100 + (where % (hex.length / 2 - 100)));
          const damaged = cut
            ? hex.slice(0, at)
            : hex.slice(0, at) + byte.toString(16).padStart(2, '0') + hex.slice(at + 2);
          const theirs = attempt(() => deserializeTransaction(damaged).payload);
          const ours = attempt(() => decodeTransaction(damaged, { network: 'mainnet' }).payload);
          // The library reads past the end of cut bytes without complaint; stackhooks refuses them.
          if (theirs === undefined)
            expect(ours, 'stackhooks read what the library refused').to.equal(undefined);
          if (theirs?.payloadType !== PayloadType.ContractCall || ours?.type !== 'contract_call') return;
          expect(ours.contract_identifier).to.equal(
            `${addressToString(theirs.contractAddress)}.${theirs.contractName.content}`,
          );
          expect(ours.function_name).to.equal(theirs.functionName.content);
          expect(ours.args).to.have.length(theirs.functionArgs.length);
          ours.args.forEach((arg, i) => {
            // Invalid UTF-8 does not survive the library's decoding; stackhooks keeps the bytes.
            if (serializeCV(deserializeCV(arg.hex.slice(2))) === arg.hex.slice(2)) {
              expect(arg.hex).to.equal(`0x${serializeCV(theirs.functionArgs[i])}`);
            }
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reads any STX transfer's recipient, standard or contract, its amount and its raw memo", async () => {
    await fc.assert(
      fc.asyncProperty(
        address,
        fc.option(contractName, { nil: undefined }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          maxLength: 34,
        }),
        async (recipientAddress, name, amount, memo) => {
          const recipient = name === undefined ? recipientAddress : `${recipientAddress}.${name}`;
          const tx = await makeUnsignedSTXTokenTransfer({
            recipient,
            amount,
            memo,
            publicKey,
            fee: 180,
            nonce: 2,
            network: 'mainnet',
          });
          const memoHex = Buffer.alloc(34);
          memoHex.write(memo, 'ascii');
          expect(decodeTransaction(tx.serialize(), { network: 'mainnet' }).payload).to.deep.equal({
            type: 'token_transfer',
            recipient,
            amount: amount.toString(),
            memo: `0x${memoHex.toString('hex')}`,
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** A real unsigned mainnet contract call from alice. */
function contractCall(
  contractAddress: string,
  contractName: string,
  functionName: string,
  functionArgs: ClarityValue[],
) {
  return makeUnsignedContractCall({
    contractAddress,
    contractName,
    functionName,
    functionArgs,
    publicKey,
    fee: 1000,
    nonce: 1,
    network: 'mainnet',
  });
}

/** What `read` returns, or undefined when it throws. */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
