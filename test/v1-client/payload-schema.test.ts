// 1.x payloads shaped with every option against the official client's own payload schema (the one
// `validate_chainhook_payloads` checks), compiled with the client's TypeBox from this folder.
import { Cl } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedBlock } from '../../core/chain/block.js';
import type { NetworkPredicate } from '../../core/chainhook-v1/predicate.js';
import { shapeV1Payload } from '../../core/chainhook-v1/shape-v1-payload.js';
import { normalizeBlock } from '../../core/stacks-codec/normalize-block.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  contractCall,
  contractDeploy,
  events,
  stxTransfer,
  withEvents,
} from '../support/block-builder.js';
import { SIP10_ABI } from '../core/chainhook-v1/token-abis.js';
import { skipUnlessClientInstalled, clientPayloadSchema, type CompiledSchema } from './client-schema.js';

const ALICE = addressOf(TEST_KEYS.alice);
const BOB = addressOf(TEST_KEYS.bob);
const CONTRACT = `${ALICE}.market`;
const NFT = `${ALICE}.art::piece`;

describe("1.x payloads against the client's payload schema", () => {
  let schema: CompiledSchema;
  let block: NormalizedBlock;

  before(async function () {
    skipUnlessClientInstalled(this);
    schema = clientPayloadSchema();
    // Every event type 1.x typed, with Clarity values of every shape in the prints and token ids.
    const tuple = Cl.tuple({
      action: Cl.stringAscii('list'),
      price: Cl.uint(2n ** 64n),
      seller: Cl.some(Cl.standardPrincipal(BOB)),
      memo: Cl.bufferFromHex('beef'),
      outcome: Cl.ok(Cl.list([Cl.int(-1), Cl.bool(true)])),
      note: Cl.none(),
      text: Cl.stringUtf8('✓'),
    });
    const node = new ChainBuilder({ label: 'v1-schema' }).next({
      transactions: [
        withEvents(
          await contractCall({ contractId: CONTRACT, functionName: 'list-item', functionArgs: [Cl.uint(1)] }),
          events.print({ contractId: CONTRACT, value: tuple }),
          events.print({ contractId: CONTRACT, value: Cl.error(Cl.uint(403)) }),
          events.nftMint({ asset: NFT, value: Cl.uint(7), recipient: BOB }),
          events.nftTransfer({
            asset: NFT,
            value: Cl.tuple({ id: Cl.uint(7) }),
            sender: BOB,
            recipient: ALICE,
          }),
          events.nftBurn({ asset: NFT, value: Cl.stringAscii('seven'), sender: ALICE }),
          events.ftMint({ asset: `${CONTRACT}::coin`, recipient: BOB, amount: 5 }),
          events.ftTransfer({ asset: `${CONTRACT}::coin`, sender: BOB, recipient: ALICE, amount: 2 }),
          events.ftBurn({ asset: `${CONTRACT}::coin`, sender: ALICE, amount: 1 }),
          events.stxMint({ recipient: BOB, amount: 10 }),
          events.stxBurn({ sender: BOB, amount: 1 }),
          events.stxLock({ lockedAddress: BOB, amount: 3, unlockHeight: 99 }),
        ),
        await stxTransfer({ recipient: BOB, amount: 5n, nonce: 1 }),
        await contractDeploy({
          contractName: 'coin',
          codeBody: '(define-fungible-token coin)',
          abi: SIP10_ABI,
        }),
      ],
    });
    block = normalizeBlock(node, { network: 'mainnet', lookupAbi: () => undefined }).block;
  });

  for (const options of [
    {},
    { decode_clarity_values: true },
    { include_contract_abi: true },
    { decode_clarity_values: true, include_contract_abi: true },
  ]) {
    it(`accepts a block of every event type and transaction kind with ${JSON.stringify(options)}`, () => {
      const predicate: NetworkPredicate = {
        if_this: { scope: 'block_height', higher_than: 0 },
        then_that: { http_post: { url: 'http://127.0.0.1/p', authorization_header: 'x' } },
        ...options,
      };
      const apply = [{ block, txIndexes: block.transactions.map((_, i) => i) }];
      const payload = shapeV1Payload({ uuid: 'u', predicate, network: 'mainnet', apply, rollback: apply });
      expect(payload.apply[0]!.transactions[0]!.metadata.receipt.events).to.have.length(11);
      const errors = [...schema.Errors(payload)].slice(0, 3);
      expect(errors, JSON.stringify(errors)).to.deep.equal([]);
    });
  }
});
