// Contract ABIs as the node reports them for a SIP-010 token and a SIP-009 NFT (the trait functions only).
import type { ContractAbi } from '../../../core/chain/contract-abi.js';

const ok = (type: ContractAbi['functions'][number]['outputs']['type']) => ({
  type: { response: { ok: type, error: 'uint128' as const } },
});

/** The ABI of a minimal SIP-010 fungible token. */
export const SIP10_ABI: ContractAbi = {
  functions: [
    {
      name: 'transfer',
      access: 'public',
      args: [
        { name: 'amount', type: 'uint128' },
        { name: 'sender', type: 'principal' },
        { name: 'recipient', type: 'principal' },
        { name: 'memo', type: { optional: { buffer: { length: 34 } } } },
      ],
      outputs: ok('bool'),
    },
    { name: 'get-name', access: 'read_only', args: [], outputs: ok({ 'string-ascii': { length: 4 } }) },
    { name: 'get-symbol', access: 'read_only', args: [], outputs: ok({ 'string-ascii': { length: 4 } }) },
    { name: 'get-decimals', access: 'read_only', args: [], outputs: ok('uint128') },
    {
      name: 'get-balance',
      access: 'read_only',
      args: [{ name: 'who', type: 'principal' }],
      outputs: ok('uint128'),
    },
    { name: 'get-total-supply', access: 'read_only', args: [], outputs: ok('uint128') },
    {
      name: 'get-token-uri',
      access: 'read_only',
      args: [],
      outputs: ok({ optional: { 'string-utf8': { length: 256 } } }),
    },
  ],
  variables: [],
  maps: [],
  fungible_tokens: [{ name: 'coin' }],
  non_fungible_tokens: [],
};

/** The ABI of a minimal SIP-009 NFT. */
export const SIP09_ABI: ContractAbi = {
  functions: [
    { name: 'get-last-token-id', access: 'read_only', args: [], outputs: ok('uint128') },
    {
      name: 'get-token-uri',
      access: 'read_only',
      args: [{ name: 'id', type: 'uint128' }],
      outputs: ok('none'),
    },
    {
      name: 'get-owner',
      access: 'read_only',
      args: [{ name: 'id', type: 'uint128' }],
      outputs: ok({ optional: 'principal' }),
    },
    {
      name: 'transfer',
      access: 'public',
      args: [
        { name: 'id', type: 'uint128' },
        { name: 'sender', type: 'principal' },
        { name: 'recipient', type: 'principal' },
      ],
      outputs: ok('bool'),
    },
  ],
  non_fungible_tokens: [{ name: 'piece', type: 'uint128' }],
};
