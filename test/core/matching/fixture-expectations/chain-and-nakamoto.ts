// What each fixture hook must match, written by hand: the txids come from a separate scan of the raw
// node events (and, for transaction kinds and senders, derived/mainnet-decoded-txs.json or the raw
// transaction's payload type), not from the matcher. A txid is listed once per distinct block that
// holds it, in file order; a block the file sends twice counts once.
import type { FixtureExpectation } from './types.js';

/** The twelve tenure changes of epoch-3-transition, all with cause block_found. */
const TENURE_CHANGES = [
  '0x8076d56347e8eb76b21acd11237cf0ac695d1fa4201e3cbe4a6e23467ff9601e',
  '0x0753090cd8359784f5afac93d9fddcdb3408b965c22a4dbbcd77acae590d1861',
  '0x4833964e8b91a699db20351c14ca59a07075a23a84b1c10136427a0a037f87ae',
  '0x03a6bfc2ec4d7626ee6aee0951b1ab5c08634bd9ade3e2aa89c12d9548b93c86',
  '0x88e6b6d516c60f0341397fab0d800f8f6bed11439001bae9d70669054cd149bb',
  '0x4c48b8f71a45aa7d6780068f1cefc95c06872016520ea6f3546a5ca4428e7310',
  '0x554bb86f08095c174394cf6aa2da9154f962b8ebabf40ee69f95751bcf4f5a39',
  '0x3563d03d0a36ed96cc497c98493e285631da369cf6fa5586a77eac6464e801be',
  '0x9bca0224d2cc9c85817a76ea28f33b91d7f8a5a7046c1a79e18f860f762bdabf',
  '0xaf3a6d2b4e09fb134c86b6ed6f2b0d1b747485a6da5475c37de58697e938ee0c',
  '0x4efe5b58385c9197c416fe35a88951c86e897df49bc7b35f848b0ac5df63c860',
  '0xb6c6aef383479e223c1830a1b9ecedb500592a9e33d81946c3bdcf9b9676ce8c',
];

/** Every expectation, by file. */
/** The fork sample's stacking calls and locks. */
export const MAINNET_REORG: FixtureExpectation = {
  file: 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv',
  network: 'mainnet',
  hooks: [
    {
      behaviour:
        'contract_call by contract and function matches every pox stack-stx, once per block that holds it',
      filter: {
        type: 'contract_call',
        contract_identifier: 'SP000000000000000000002Q6VF78.pox',
        function_name: 'stack-stx',
      },
      txids: [
        '0x61233be68853960bb30812a6692fa5713892a57dfa578d4009523c9e6b99fc7c',
        '0xc3f1e0c958c5c5fd1155595d1948f652f3f18e1e0422f84ae4810ed77277bbce',
        '0x42ba5b0fc42f05474c45d4831bea148cfc80a3e64bd9e49375b4e1f5031b5c73',
        '0x5f0358482c17c338163a51eed0db75cd03df19960fbe29e807ee9afc955c6702',
        '0x9054a078a442d1858dffbf97e7febe51797233be9f7c9be26c10fc52eee8319d',
        '0xa7993ffea4ffe15ce5b5814778edc626dddb267b9b2cf0d343d586e9c0e0ebb0',
        '0x0d0fe6cadf1c73f14938c83a62ff90278c7d5c91f402a73914d74805b931eafd',
        '0x0d0fe6cadf1c73f14938c83a62ff90278c7d5c91f402a73914d74805b931eafd',
      ],
    },
    {
      behaviour: 'contract_deploy matches the one deploy',
      filter: { type: 'contract_deploy' },
      txids: ['0xb874ddbb4a602c22bb5647c7a2f8bfcafbbca7c0c663a175f2270ef3665f33de'],
    },
    {
      behaviour:
        "balance_change matches a stacker's earlier transfer and its STX lock in both sibling blocks",
      filter: { type: 'balance_change', principal: 'SP1T91N2Y2TE5M937FE3R6DE0HGWD85SGCV50T95A' },
      txids: [
        '0x937ab944ec5190d5167af160c6cf099d620a256a12071c58e29a587e9cd0f5f2',
        '0x0d0fe6cadf1c73f14938c83a62ff90278c7d5c91f402a73914d74805b931eafd',
        '0x0d0fe6cadf1c73f14938c83a62ff90278c7d5c91f402a73914d74805b931eafd',
      ],
    },
    {
      behaviour: "balance_change matches the stack-stx that locked a stacker's STX",
      filter: { type: 'balance_change', principal: 'SP2431E3PX2GRS9S6P6090XQEHW09JFH83KYAC02Z' },
      txids: ['0xc3f1e0c958c5c5fd1155595d1948f652f3f18e1e0422f84ae4810ed77277bbce'],
    },
  ],
};

/** Genesis: the one STX mint. */
export const MAINNET_GENESIS: FixtureExpectation = {
  file: 'stacks-blockchain-api/mainnet-block0.tsv',
  network: 'mainnet',
  hooks: [
    {
      behaviour: 'stx_mint matches the genesis transaction that minted STX',
      filter: { type: 'stx_mint' },
      txids: ['0x2f079994c9bd92b2272258b9de73e278824d76efe1b5a83a3b00941f9559de8a'],
    },
    {
      behaviour: 'stx_event matches the genesis mint and nothing else',
      filter: { type: 'stx_event' },
      txids: ['0x2f079994c9bd92b2272258b9de73e278824d76efe1b5a83a3b00941f9559de8a'],
    },
  ],
};

/** The Nakamoto transition: tenure changes and every coinbase variant. */
export const EPOCH_3_TRANSITION: FixtureExpectation = {
  file: 'stacks-blockchain-api/epoch-3-transition.tsv.gz',
  network: 'testnet',
  hooks: [
    {
      behaviour: 'tenure_change without cause matches every tenure change',
      filter: { type: 'tenure_change' },
      txids: TENURE_CHANGES,
    },
    {
      behaviour:
        'tenure_change with cause block_found matches every tenure change here (all are block_found)',
      filter: { type: 'tenure_change', cause: 'block_found' },
      txids: TENURE_CHANGES,
    },
    {
      behaviour: 'tenure_change with cause extended matches none of them',
      filter: { type: 'tenure_change', cause: 'extended' },
      txids: [],
    },
    {
      behaviour: 'coinbase matches every coinbase, with alt recipient and Nakamoto alike',
      filter: { type: 'coinbase' },
      txids: [
        '0x9f9b928c0a43354802d546f1edffba605a1f47e359b8cf28a53f7351891a3e47',
        '0x9b2fca07c2882ad6ce2e657cc16bd82a3327305b7644272e213806b0df656330',
        '0xa484e11b80d20ebf38315826ca0b5ec2648ac049be08fec3538cb6da7d65e9f7',
        '0xf361dd2fa25ede48aaa6831d3952da149046f229d72266f045811ad560953781',
        '0x408ada5ee746899a7be103c24b6035d97a4c15c71866a9e7a8ac6d5c8f58f1e5',
        '0xe581b259522f8b6a5b44a478e5a3dd4389f0de948c0f7dea62572c3d36c26df3',
        '0x372bc93efa90ea863d271c1e5fdba0795fc7a4467631648cf10b9a3353d1e2e2',
        '0x8df6771d2afec2684a3d6b4ec84f482b9532210120c52fd555998876560a38b3',
        '0xf32344912f15dc0959ae7e240432a84d4055d8eabd777f5c43250679d62e7fbb',
        '0xeaa679e9d6d38bc397bf82dcce3cc51517f5dc659d71db7bebfad2d5e7658b18',
        '0x76d19c482cd26932d50d22c4beddc0bf47067d921cf35dca6f54464399d185fb',
        '0x52d557aef16f9c1ec2246af3d6bae1e74b39873d049a0c28c1a8df5e3366eeb2',
        '0xc2a797189c31592a6f69456ef83a1a8c4611f66ee3cea38ab21fdfa2195627eb',
        '0xbf75c3379deb676782ef507075a45f5a82710c8869af2e099413e9120521f986',
        '0xb59d79e9d567492c99b53cfa6a2fb2e7588a9edbd1c9c99c8791555638f74bc4',
        '0x5323d9c8cd4660c700b82247b1cb42076c6cb7e7273542a18b4fb8afafd4b9fd',
        '0x0e9d58ac2167b3f181327b9e2eb13b5d81ef750a4a23157ea2f44603cd385960',
        '0xdb7bc5ab9162767c1ba5592540d6de482955ad72fb70defa909206610381469f',
        '0xbbe88d45048ef0aaabb0681b476b96872c16ac396616cef2ac8660b281d27762',
        '0x116ad06ea25e42cb0a2ac9ea76c549a948070a6c499db6d4611b54ce65339197',
        '0x0ce8d38e18303fd2667dd4d636880a982a61fdc1dea8d9ddc460a70c3c1998d7',
        '0xfccbb1d1662354779291481a2e93a66df0e88f4f6c9b6d81699d0cf3f75c85bc',
        '0xfc92481d1591c0a9956cf23626924e34163c8213a83b38a337ec380d4f7e0ce3',
        '0xb8c5fc742859e058dd3d6403c8ae40f61f041750022f13b354888c730cbd9ee8',
        '0x15552bb12edc78d027c8591b5dae32d02501a16ed89e404402abb6a66fcd0fb1',
        '0x0e218308be7365719c750ce447cf31ea06294345f5cf7ce1949bd56a8e9ff0ef',
        '0x04c8ccc087f94c3d8e4464fd397421798471dd5de5cbe3238b09bbb6bdbc381f',
        '0x3f0c15dbbd221b70736c2a125ff10d4622385994467f9a59b67418efb15198e0',
        '0xea14cde8c955b1cd216144a22847df55d340d6bd5128a9ad592bc44ee049e53b',
        '0x2ae2041ef9defc6607158885fc871fc6b95046d1cf362ab1928a1c2d4f4b1780',
        '0x8c2f979c0a81ca17d8027d39c1c222b596e9c0457e8476294afcc4a95b2a0450',
      ],
    },
  ],
};
