import type { ContractCallArg, TransactionPayload } from '../chain/transaction-payload.js';
import { c32Address, decodeClarityValuesAt, type ReprCache } from './clarity-repr.js';
import { functionArgTypes } from './abi-signature.js';
import { type AbiLookup } from '../chain/contract-abi.js';

// The two commonest payloads, read straight from the transaction's bytes. The library would decode
// every Clarity value into objects and c32-encode each principal in them without a memo (two
// sha256 each), which was most of a busy block's decode time; the repr decoder reads the same bytes
// once, with the block's memo, and gives each argument's exact bytes on the way.

/** A transaction's bytes, their lowercase hex, and the memo tables of its block. */
export type WireTransaction = { hex: string; bytes: Buffer; cache: ReprCache };

/** Length of an STX transfer's memo. */
const MEMO_BYTES = 34;

/**
 * The contract call payload that starts at byte `at` (its type byte): the target contract, the
 * function, and each argument as hex, repr and type, named and typed from the ABI when known.
 */
export function readContractCall(
  tx: WireTransaction,
  at: number,
  lookupAbi: AbiLookup | undefined,
): TransactionPayload {
  const { hex, bytes, cache } = tx;
  let pos = at + 1;
  need(bytes, pos, 21);
  const address = c32Address(bytes[pos], hex.slice((pos + 1) * 2, (pos + 21) * 2), cache);
  pos += 21;
  const contractName = readShortString(bytes, pos);
  pos = contractName.end;
  const functionName = readShortString(bytes, pos);
  pos = functionName.end;
  need(bytes, pos, 4);
  const count = bytes.readUInt32BE(pos);
  const { values } = decodeClarityValuesAt(hex, bytes, pos + 4, count, cache);
  const contractId = `${address}.${contractName.text}`;
  const abi = lookupAbi?.(contractId);
  const typed = abi ? functionArgTypes(abi, functionName.text, values.length) : undefined;
  const args: ContractCallArg[] = values.map((v, i) => ({
    hex: v.hex,
    repr: v.repr,
    name: typed ? typed[i].name : '',
    type: typed ? typed[i].type : v.type,
  }));
  return {
    type: 'contract_call',
    contract_identifier: contractId,
    function_name: functionName.text,
    args,
  };
}

/** The STX transfer payload that starts at byte `at`: recipient principal, amount, and the memo's raw bytes. */
export function readTokenTransfer(tx: WireTransaction, at: number): TransactionPayload {
  const { hex, bytes, cache } = tx;
  const {
    values: [recipient],
    end,
  } = decodeClarityValuesAt(hex, bytes, at + 1, 1, cache);
  if (recipient.type !== 'principal') throw new Error(`STX transfer recipient is a ${recipient.type}`);
  need(bytes, end, 8 + MEMO_BYTES);
  return {
    type: 'token_transfer',
    // The repr's leading `'` is not part of the payload's principal.
    recipient: recipient.repr.slice(1),
    amount: bytes.readBigUInt64BE(end).toString(),
    memo: `0x${hex.slice((end + 8) * 2, (end + 8 + MEMO_BYTES) * 2)}`,
  };
}

/** Contract and function names are at most 128 bytes; the library refuses longer ones. */
const MAX_NAME_BYTES = 128;

/** A name with a one-byte length (contract and function names), as UTF-8 like the library reads it. */
function readShortString(bytes: Buffer, at: number): { text: string; end: number } {
  need(bytes, at, 1);
  const length = bytes[at];
  if (length > MAX_NAME_BYTES) throw new Error(`name longer than ${MAX_NAME_BYTES} bytes at byte ${at}`);
  need(bytes, at + 1, length);
  return { text: bytes.toString('utf8', at + 1, at + 1 + length), end: at + 1 + length };
}

function need(bytes: Buffer, at: number, length: number): void {
  if (at + length > bytes.length)
    throw new Error(`transaction truncated at byte ${at} (needs ${length} more)`);
}
