// What each fixture hook must match, written by hand: the txids come from a separate scan of the raw
// node events (and, for transaction kinds and senders, derived/mainnet-decoded-txs.json or the raw
// transaction's payload type), not from the matcher. A txid is listed once per distinct block that
// holds it, in file order; a block the file sends twice counts once.
import type { FixtureExpectation } from './types.js';

const ALEX_TOKEN = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.age000-governance-token::alex';
const ALEX_VAULT = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.alex-vault';
const BNS_NAMES = 'SP000000000000000000002Q6VF78.bns::names';

/** The busy mainnet block: FT, NFT, STX, prints, calls, a coinbase and balance changes. */
export const POISON_MICROBLOCK: FixtureExpectation = {
  file: 'stacks-blockchain-api/poisonmicroblock.tsv',
  network: 'mainnet',
  hooks: [
    {
      behaviour: 'ft_transfer by asset and sender matches the one swap in which SP32G5… sent ALEX',
      filter: {
        type: 'ft_transfer',
        asset_identifier: ALEX_TOKEN,
        sender: 'SP32G5NZH2KJ7P0SDFC7MEG06MGR6ZJB8FJT449SJ',
      },
      txids: ['0xff6a0c2b54f3991b387d80d5639f408bafabe966bbde6d55532111ae79394f53'],
    },
    {
      behaviour: 'ft_transfer by receiver matches every transfer into a contract principal (alex-vault)',
      filter: { type: 'ft_transfer', receiver: ALEX_VAULT },
      txids: [
        '0x9dc9ac3daee981c912612fd3785d52ddc9e43155a49d35c2102962830344e186',
        '0xfd0ec7d8b2380762e55604103ad93dcbe4b7943599ef8c5a68981a58785a42c8',
        '0xff6a0c2b54f3991b387d80d5639f408bafabe966bbde6d55532111ae79394f53',
        '0x5ed952ef5fd5c53b596ea8dfec867de475c143a21f0428b4e9436fab0c3dfb59',
      ],
    },
    {
      behaviour: 'ft_mint by asset matches the one ALEX mint',
      filter: { type: 'ft_mint', asset_identifier: ALEX_TOKEN },
      txids: ['0x1b1fb0a5f897a754f8783d44a160b2b77825f990b9e9507e4571d8499a4d1c72'],
    },
    {
      behaviour: 'ft_mint by receiver matches the apower distribution that minted to SP27FC…',
      filter: { type: 'ft_mint', receiver: 'SP27FCRPW4S9GPW86WEB76WJ83GB41XG3M3YXZXJ8' },
      txids: ['0x58ffe62029f94f7101b959536ea4953b9bce0ec3f6e2a06254c511bdd5cfa9e7'],
    },
    {
      behaviour: 'ft_burn by sender matches the lottery registration that burned apower',
      filter: { type: 'ft_burn', sender: 'SP2EZY2MYT3TCD92FMC71XZ8M0H56ZBVTWNXS7J52' },
      txids: ['0x1b1fb0a5f897a754f8783d44a160b2b77825f990b9e9507e4571d8499a4d1c72'],
    },
    {
      behaviour: 'ft_burn by asset matches both transactions that burned apower',
      filter: {
        type: 'ft_burn',
        asset_identifier: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.token-apower::apower',
      },
      txids: [
        '0x1b1fb0a5f897a754f8783d44a160b2b77825f990b9e9507e4571d8499a4d1c72',
        '0x58ffe62029f94f7101b959536ea4953b9bce0ec3f6e2a06254c511bdd5cfa9e7',
      ],
    },
    {
      behaviour: 'ft_event by asset matches every transaction that moved auto-alex',
      filter: {
        type: 'ft_event',
        asset_identifier: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.auto-alex::auto-alex',
      },
      txids: [
        '0x9dc9ac3daee981c912612fd3785d52ddc9e43155a49d35c2102962830344e186',
        '0x58ffe62029f94f7101b959536ea4953b9bce0ec3f6e2a06254c511bdd5cfa9e7',
      ],
    },
    {
      behaviour: 'nft_mint by asset matches the two BNS name registrations',
      filter: { type: 'nft_mint', asset_identifier: BNS_NAMES },
      txids: [
        '0x2cd55a8674ca0fe925ebb0bf4a9fe05145178c3708d865ea3b56d69ae36acaf6',
        '0xf27c3448817e5448bc00443eaaa1736da8495fa5de705c998896970b3d77d18d',
      ],
    },
    {
      behaviour: 'nft_transfer by asset and receiver matches the BNS name transfer',
      filter: {
        type: 'nft_transfer',
        asset_identifier: BNS_NAMES,
        receiver: 'SP11KEPTX6S20GRS7HGP6HEM036VGG9MRZZXQ3R39',
      },
      txids: ['0x8acb6c689956465e119341dfb3310b78995386cbcb0039d16f765a4ef63e83b6'],
    },
    {
      behaviour: 'nft_burn matches nothing where no NFT is burned',
      filter: { type: 'nft_burn' },
      txids: [],
    },
    {
      behaviour: 'stx_transfer by receiver matches the four transfers to SP3TH6…',
      filter: { type: 'stx_transfer', receiver: 'SP3TH6A0BKQ7YV51BMHJN4HYQGJDXV7G2RFAQT7C2' },
      txids: [
        '0x0e84af278e249bb66dc607e69124f6e8a0bc569cfd1b405a140c7f9244cf87bc',
        '0xdb23c09cc45cbf456520208d22e10b52b8663e75ce5b4cd58bbf5f311d0fc64c',
        '0x80898ed06a3ae0f15f63280efc232015863371f856f04a3995b8ce948039ff2c',
        '0xe43b1982ba2e1ad143111acf30c5f5308afd788f3c1bb6843196f4cd80839303',
      ],
    },
    {
      behaviour: 'stx_burn matches the five BNS preorders, which burn STX',
      filter: { type: 'stx_burn' },
      txids: [
        '0x34765c4b7638768731b5d8f19130acbbaea3a2e0afa87e0670f742729c5d5e16',
        '0x7fcee0c23e6f46d22c3dbf1d26eec10343a8e80fffb11d41d2be04b702cc9c37',
        '0x033965e49bdf794380a7bdfd2a0775ace2b3f89fba9050455820ed1b86c52d91',
        '0xc9c50cbe90ff1d559e32f2b6e6f2b4db1d6e3d544f678fb718db03e87b9ca1dc',
        '0x909fd89fddddc144d6d690a2a4c4a8c56cded84602a2f180407e991626edd3f5',
      ],
    },
    {
      behaviour: 'contract_call by contract and function matches every swap-helper call, the aborted one too',
      filter: {
        type: 'contract_call',
        contract_identifier: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap-helper-v1-03',
        function_name: 'swap-helper',
      },
      txids: [
        '0x9dc9ac3daee981c912612fd3785d52ddc9e43155a49d35c2102962830344e186',
        '0x12edac237aaf3a716c53aa8bd22a780d8794d3e744cd46302f38d3d8fb047f00', // abort_by_post_condition
        '0xff6a0c2b54f3991b387d80d5639f408bafabe966bbde6d55532111ae79394f53',
        '0x5ed952ef5fd5c53b596ea8dfec867de475c143a21f0428b4e9436fab0c3dfb59',
      ],
    },
    {
      behaviour: 'contract_call by sender matches both calls SP2EZY… sent, the aborted one too',
      filter: { type: 'contract_call', sender: 'SP2EZY2MYT3TCD92FMC71XZ8M0H56ZBVTWNXS7J52' },
      txids: [
        '0x1b1fb0a5f897a754f8783d44a160b2b77825f990b9e9507e4571d8499a4d1c72',
        '0x12edac237aaf3a716c53aa8bd22a780d8794d3e744cd46302f38d3d8fb047f00', // abort_by_post_condition
      ],
    },
    {
      behaviour: 'contract_log by contract matches the three transactions in which BNS printed',
      filter: { type: 'contract_log', contract_identifier: 'SP000000000000000000002Q6VF78.bns' },
      txids: [
        '0x2cd55a8674ca0fe925ebb0bf4a9fe05145178c3708d865ea3b56d69ae36acaf6',
        '0xf27c3448817e5448bc00443eaaa1736da8495fa5de705c998896970b3d77d18d',
        '0x8acb6c689956465e119341dfb3310b78995386cbcb0039d16f765a4ef63e83b6',
      ],
    },
    {
      behaviour: 'contract_log by contract matches prints of a pool called through swap-helper',
      filter: {
        type: 'contract_log',
        contract_identifier: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.fixed-weight-pool-v1-01',
      },
      txids: [
        '0x9dc9ac3daee981c912612fd3785d52ddc9e43155a49d35c2102962830344e186',
        '0xff6a0c2b54f3991b387d80d5639f408bafabe966bbde6d55532111ae79394f53',
        '0x5ed952ef5fd5c53b596ea8dfec867de475c143a21f0428b4e9436fab0c3dfb59',
      ],
    },
    {
      behaviour: 'contract_log by sender does not match a sender whose only call aborted',
      filter: { type: 'contract_log', sender: 'SP2791RKSYJJ39MVHC09J8NARWBMK5G9C79EJB0RV' },
      txids: [],
    },
    {
      behaviour: "coinbase matches the block's coinbase",
      filter: { type: 'coinbase' },
      txids: ['0xcbd4f7496b069a8e0a498c3adb095b63bff057272caed4c1efdbd4975b57d2f3'],
    },
    {
      behaviour: "balance_change matches a principal's token movements and the fee of its aborted call",
      filter: { type: 'balance_change', principal: 'SP2EZY2MYT3TCD92FMC71XZ8M0H56ZBVTWNXS7J52' },
      txids: [
        '0x1b1fb0a5f897a754f8783d44a160b2b77825f990b9e9507e4571d8499a4d1c72',
        '0x12edac237aaf3a716c53aa8bd22a780d8794d3e744cd46302f38d3d8fb047f00', // abort_by_post_condition
      ],
    },
    {
      behaviour: "balance_change matches a contract principal's FT and STX movements",
      filter: { type: 'balance_change', principal: ALEX_VAULT },
      txids: [
        '0x9dc9ac3daee981c912612fd3785d52ddc9e43155a49d35c2102962830344e186',
        '0xfd0ec7d8b2380762e55604103ad93dcbe4b7943599ef8c5a68981a58785a42c8',
        '0xff6a0c2b54f3991b387d80d5639f408bafabe966bbde6d55532111ae79394f53',
        '0x5ed952ef5fd5c53b596ea8dfec867de475c143a21f0428b4e9436fab0c3dfb59',
      ],
    },
  ],
};
