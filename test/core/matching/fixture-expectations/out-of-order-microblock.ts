// What each fixture hook must match, written by hand: the txids come from a separate scan of the raw
// node events (and, for transaction kinds and senders, derived/mainnet-decoded-txs.json or the raw
// transaction's payload type), not from the matcher. A txid is listed once per distinct block that
// holds it, in file order; a block the file sends twice counts once.
import type { FixtureExpectation } from './types.js';

const PUNKS = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-punks-v3::stacks-punks';
const PUNKS_MARKET = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-punks-market';
/** Sender of the call aborted by post-conditions (tx 12), whose transfers are uncommitted. */
const ABORTED_BUYER = 'SP31PV6X2Y2NE6887KQWT7W6H9DYA813GM11Q5MF7';

/** The mainnet block with NFT transfers and mints, and an aborted call with uncommitted events. */
export const OUT_OF_ORDER_MICROBLOCK: FixtureExpectation = {
  file: 'stacks-blockchain-api/mainnet-out-of-order-microblock.tsv',
  network: 'mainnet',
  hooks: [
    {
      behaviour: 'nft_transfer by asset matches the committed punk transfers, not the aborted one',
      filter: { type: 'nft_transfer', asset_identifier: PUNKS },
      txids: [
        '0x2bff0bae321551b3063e92ea67e2061131a38ffa13cfb9ce4ffc728a7ddc8817',
        '0xa63da9d3372dca0d183e8c6a46c81eb77f1a12ce4cd925113e6efe16829ec281',
        '0x6d0ec6f1433913d10fcac19bdb1da0e2a9cfdbdc6242f5aa6c5dccdbe74d26dc',
      ],
    },
    {
      behaviour: 'nft_transfer by asset and receiver matches the punks sent to the market contract',
      filter: { type: 'nft_transfer', asset_identifier: PUNKS, receiver: PUNKS_MARKET },
      txids: [
        '0x2bff0bae321551b3063e92ea67e2061131a38ffa13cfb9ce4ffc728a7ddc8817',
        '0xa63da9d3372dca0d183e8c6a46c81eb77f1a12ce4cd925113e6efe16829ec281',
      ],
    },
    {
      behaviour: 'nft_event by integer value matches the transfer of punk u9048',
      filter: { type: 'nft_event', asset_identifier: PUNKS, value: 9048 },
      txids: ['0xa63da9d3372dca0d183e8c6a46c81eb77f1a12ce4cd925113e6efe16829ec281'],
    },
    {
      behaviour: 'nft_event by hex value does not match a punk moved only by an aborted transaction',
      filter: { type: 'nft_event', value: '0x010000000000000000000000000000036D' },
      txids: [],
    },
    {
      behaviour: 'nft_mint by asset and repr value matches the free-punks mint of u483',
      filter: {
        type: 'nft_mint',
        asset_identifier: 'SP32AEEF6WW5Y0NMJ1S8SBSZDAY8R5J32NBZFPKKZ.free-punks-v0::free-punks',
        value: 'u483',
      },
      txids: ['0xcc728f39942534a6239a7d34c6f898a4cefc0032df8258723e0df7e458f789f5'],
    },
    {
      behaviour: 'nft_burn matches nothing where no NFT is burned',
      filter: { type: 'nft_burn' },
      txids: [],
    },
    {
      behaviour: 'ft_event by asset matches the MiamiCoin mints and transfers',
      filter: {
        type: 'ft_event',
        asset_identifier: 'SP466FNC0P7JWTNM2R9T199QRZN1MYEDTAR0KP27.miamicoin-token::miamicoin',
      },
      txids: [
        '0xfc63d4bdcb65e52292652722136fddce2fc08c535a6662e7c4e65f035e705e8c',
        '0xeeca1df114c7c463040707392c47dad343624b55fbc4dfc6a85585dffd9393a7',
        '0x3f1a973872bdcd77ebe6462d238d83465aad50a80f5ead06a6909ba1981a62ab',
        '0x3fe18717d6efde6cd3814f4ce5de0d7db605bb3d26ae84ef8177ff7be7b8d86a',
      ],
    },
    {
      behaviour: 'stx_burn by sender matches the one STX burn',
      filter: { type: 'stx_burn', sender: 'SPSJJ416M5ZQEMT54PWY4022EWHB0XEDY2Q4TDYD' },
      txids: ['0xcea25491244746878db68b5b42579a68e49c09aa0214ee7b5d0c6b32e2ccf6f9'],
    },
    {
      behaviour: 'stx_transfer by sender does not match transfers of an aborted transaction',
      filter: { type: 'stx_transfer', sender: ABORTED_BUYER },
      txids: [],
    },
    {
      behaviour: 'stx_transfer by receiver matches the two transfers to SPX8T0…',
      filter: { type: 'stx_transfer', receiver: 'SPX8T06E8FJQ33CX8YVR9CC6D9DSTF6JE0Y8R7DS' },
      txids: [
        '0xa59b7753d490e3928c340c48554d99cc65401c7540e4b33631f01352a2c32cf2',
        '0x08a6b0cd11e16df01ef914583df7d355c68aac1f35bcfbf5018aebfec4b83fdc',
      ],
    },
    {
      behaviour: 'stx_event matches every transaction with a committed STX transfer or burn',
      filter: { type: 'stx_event' },
      txids: [
        '0x2bace706e82ec49e5547363be3758fdb780b2be7201b5d23004e16a51d7eddc6',
        '0x53a705e9a7338d7f4fef967f57f3ea0826f6398ddff4dcc641e4212dedf311a7',
        '0xcea25491244746878db68b5b42579a68e49c09aa0214ee7b5d0c6b32e2ccf6f9',
        '0x6d0ec6f1433913d10fcac19bdb1da0e2a9cfdbdc6242f5aa6c5dccdbe74d26dc',
        '0x72c0d57b08a6d468495b60e04a15c2182a399c493d666a520fbf13f30873ac56',
        '0x8d07a550c68d767cc832c78f42aa4ce37215620898aeb00631dfc88717d71de3',
        '0xa59b7753d490e3928c340c48554d99cc65401c7540e4b33631f01352a2c32cf2',
        '0x08a6b0cd11e16df01ef914583df7d355c68aac1f35bcfbf5018aebfec4b83fdc',
        '0x0b1bac5bf2c10f39fdce20519875034b8df57c23aabb064b2910c85c5220c173',
        '0x0b460d36f1fd828c2ea42f68579fece3559eebe1f212ac53f6cdd39fa9d0460d',
      ],
    },
    {
      behaviour: 'contract_deploy matches the one deploy',
      filter: { type: 'contract_deploy' },
      txids: ['0x3f03adbadc0444d29382dfcd54c2d472371555c476acaacef535d8d701b9623c'],
    },
    {
      behaviour: 'contract_call by sender matches a call aborted by its post-conditions',
      filter: { type: 'contract_call', sender: ABORTED_BUYER },
      txids: [
        '0x41638c9caec87c581834e6a0fd06da2b9aba2bf4de2cc30f5e319ebb9d411db2', // abort_by_post_condition
      ],
    },
    {
      behaviour: 'balance_change matches the fee payer of an aborted call, not its uncommitted transfers',
      filter: { type: 'balance_change', principal: ABORTED_BUYER },
      txids: [
        '0x41638c9caec87c581834e6a0fd06da2b9aba2bf4de2cc30f5e319ebb9d411db2', // abort_by_post_condition
      ],
    },
  ],
};
