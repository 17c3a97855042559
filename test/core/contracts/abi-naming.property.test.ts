import { expect } from 'chai';
import fc from 'fast-check';
import { Cl, getTypeString, type ClarityValue } from '@stacks/transactions';
import type { ClarityAbiType, ContractAbi } from '../../../core/chain/contract-abi.js';
import type { ContractCallArg } from '../../../core/chain/transaction-payload.js';
import { readContractAbi } from '../../../core/contracts/abi-shape.js';
import { nameContractCalls } from '../../../core/contracts/name-contract-calls.js';
import { shapePayload } from '../../../core/payload/index.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import { ChainBuilder, contractCall } from '../../support/block-builder.js';
import { address, clarityValueRepr, contractName } from '../../support/clarity-values.js';

const CONTRACT = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.market';
const fieldName = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

/** Every Clarity type an argument can be declared with, nested a few levels, small lengths. */
const abiType: fc.Arbitrary<ClarityAbiType> = fc.letrec<{ type: ClarityAbiType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<ClarityAbiType>('uint128', 'int128', 'bool', 'principal', 'trait_reference'),
    fc.nat(40).map((length) => ({ buffer: { length } })),
    fc.nat(20).map((length) => ({ 'string-ascii': { length } })),
    fc.nat(20).map((length) => ({ 'string-utf8': { length } })),
    tie('type').map((type) => ({ optional: type })),
    fc.tuple(tie('type'), tie('type')).map(([ok, error]) => ({ response: { ok, error } })),
    fc.tuple(tie('type'), fc.nat(4)).map(([type, length]) => ({ list: { type, length } })),
    fc
      .uniqueArray(fc.tuple(fieldName, tie('type')), {
        minLength: 1,
        maxLength: 3,
        selector: ([name]) => name,
      })
      .map((fields) => ({
        // The ABI lists a tuple's fields sorted by name, as Clarity does.
        tuple: fields.map(([name, type]) => ({ name, type })).sort((a, b) => (a.name < b.name ? -1 : 1)),
      })),
  ),
})).type;

/** A value of the declared type. */
function valueOf(type: ClarityAbiType): fc.Arbitrary<ClarityValue> {
  if (typeof type === 'string') {
    switch (type) {
      case 'uint128':
        return fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }).map((n) => Cl.uint(n));
      case 'int128':
        return fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n }).map((n) => Cl.int(n));
      case 'bool':
        return fc.boolean().map((b) => Cl.bool(b));
      case 'principal':
        return fc.oneof(
          address.map((a) => Cl.standardPrincipal(a)),
          fc.tuple(address, contractName).map(([a, n]) => Cl.contractPrincipal(a, n)),
        );
      case 'trait_reference':
        return fc.tuple(address, contractName).map(([a, n]) => Cl.contractPrincipal(a, n));
      default:
        throw new Error(`no values of ${type}`);
    }
  }
  if ('buffer' in type) return fc.uint8Array({ maxLength: type.buffer.length }).map((b) => Cl.buffer(b));
  if ('string-ascii' in type) {
    const ascii = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    return fc.string({ unit: ascii, maxLength: type['string-ascii'].length }).map((s) => Cl.stringAscii(s));
  }
  if ('string-utf8' in type) {
    const limit = type['string-utf8'].length;
    return fc
      .string({ unit: 'grapheme', maxLength: limit })
      .map((s) => {
        while (Buffer.byteLength(s, 'utf8') > limit) s = [...s].slice(0, -1).join('');
        return s;
      })
      .map((s) => Cl.stringUtf8(s));
  }
  if ('optional' in type) return fc.option(valueOf(type.optional)).map((v) => (v ? Cl.some(v) : Cl.none()));
  if ('response' in type) {
    return fc.oneof(
      valueOf(type.response.ok).map((v) => Cl.ok(v)),
      valueOf(type.response.error).map((v) => Cl.error(v)),
    );
  }
  if ('list' in type)
    return fc.array(valueOf(type.list.type), { maxLength: type.list.length }).map((items) => Cl.list(items));
  if ('tuple' in type) {
    const fields = type.tuple.map((field) =>
      valueOf(field.type).map((value) => [field.name, value] as const),
    );
    return fc.tuple(...fields).map((entries) => Cl.tuple(Object.fromEntries(entries)));
  }
  throw new Error(`no values of ${JSON.stringify(type)}`);
}

/** A function's declared argument types and a value of each. */
const declaredCall = fc
  .array(abiType, { minLength: 1, maxLength: 3 })
  .chain((types) => fc.tuple(fc.constant(types), fc.tuple(...types.map(valueOf))));

function abiOf(types: ClarityAbiType[]): ContractAbi {
  return {
    functions: [
      {
        name: 'act',
        access: 'public',
        args: types.map((type, i) => ({ name: `arg-${i}`, type })),
        outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
      },
    ],
  };
}

function deliveredArgs(block: ReturnType<typeof normalizeBlock>['block']): ContractCallArg[] {
  const payload = shapePayload({
    hook: { uuid: 'h', name: 'h', options: { decode_clarity_values: true } },
    network: 'mainnet',
    apply: [{ block, txIndexes: [0] }],
    rollback: [],
  });
  const op = payload.event.apply[0].transactions[0].operations.find((o) => o.type === 'contract_call')!;
  return op.metadata.args as ContractCallArg[];
}

describe('contract-call arguments named from an ABI (properties)', () => {
  it("deliver each argument's declared signature as `type` and its value's repr as `repr`", async () => {
    await fc.assert(
      fc.asyncProperty(declaredCall, async ([types, values]) => {
        // The ABI goes through the check an answer of the node gets.
        const abi = readContractAbi(JSON.parse(JSON.stringify(abiOf(types))));
        expect(abi, 'a well-formed ABI passes the check').to.not.equal(undefined);
        const call = await contractCall({ contractId: CONTRACT, functionName: 'act', functionArgs: values });
        const nodeBlock = new ChainBuilder().next({ transactions: [call] });
        const lookupAbi = (id: string) => (id === CONTRACT ? abi : undefined);

        const { block } = normalizeBlock(nodeBlock, { network: 'mainnet', lookupAbi });
        const expected = values.map((value, i) => ({
          name: `arg-${i}`,
          type: getTypeString(types[i] as never),
          repr: clarityValueRepr(value).repr,
        }));
        expect(deliveredArgs(block).map(({ name, type, repr }) => ({ name, type, repr }))).to.deep.equal(
          expected,
        );

        // Archived unnamed, named later: the same arguments.
        const unnamed = normalizeBlock(nodeBlock, { network: 'mainnet', lookupAbi: () => undefined }).block;
        expect(deliveredArgs(nameContractCalls(unnamed, lookupAbi))).to.deep.equal(deliveredArgs(block));
      }),
      { numRuns: 150 },
    );
  });
});
