import { checkPrintPattern } from './print-pattern.js';
import type {
  BlockHeightRule,
  DeployedTrait,
  NetworkPredicate,
  PredicateAction,
  PredicateNetwork,
  StacksPredicate,
  StacksScope,
  StxAction,
  TokenAction,
} from './predicate.js';

/** A predicate read whole, or every problem found, each naming its field. */
export type PredicateReading = { ok: true; predicate: StacksPredicate } | { ok: false; problems: string[] };

const NETWORKS: readonly PredicateNetwork[] = ['mainnet', 'testnet'];
const TOKEN_ACTIONS: readonly TokenAction[] = ['mint', 'transfer', 'burn'];
const STX_ACTIONS: readonly StxAction[] = ['mint', 'transfer', 'lock', 'burn'];
const TRAITS: readonly DeployedTrait[] = ['sip09', 'sip10', '*'];
const SCOPES = [
  'txid',
  'block_height',
  'ft_event',
  'nft_event',
  'stx_event',
  'print_event',
  'contract_call',
  'contract_deployment',
  'signer_message',
] as const;
// 1.x took any string; these keep a uuid usable in a URL path and a log line.
const UUID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TXID = /^0x[0-9a-fA-F]{64}$/;
const MAX_TEXT = 1024;

type Fields = Record<string, unknown>;

/**
 * Read a 1.x Stacks predicate (a predicate file or a `POST /v1/chainhooks` body). Fields 1.x does not
 * know are ignored, as 1.x ignored them; every problem names its field (`networks.testnet.if_this.scope`).
 */
export function parsePredicate(body: unknown): PredicateReading {
  const problems: string[] = [];
  if (!isObject(body)) return { ok: false, problems: ['the predicate must be a JSON object'] };
  if (body.chain !== 'stacks') problems.push('chain must be "stacks" (Bitcoin predicates are not served)');
  if (typeof body.uuid !== 'string' || !UUID.test(body.uuid))
    problems.push('uuid must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit');
  if (!isText(body.name)) problems.push(`name must be a string of 1 to ${MAX_TEXT} characters`);
  if (!Number.isSafeInteger(body.version) || (body.version as number) < 1)
    problems.push('version must be a positive integer');
  const networks: Partial<Record<PredicateNetwork, NetworkPredicate>> = {};
  if (!isObject(body.networks)) problems.push('networks must be an object with mainnet and/or testnet');
  else {
    for (const name of Object.keys(body.networks)) {
      if (!(NETWORKS as readonly string[]).includes(name))
        problems.push(`networks.${name} is not a Stacks network (mainnet or testnet)`);
    }
    for (const name of NETWORKS) {
      const spec = body.networks[name];
      if (spec === undefined) continue;
      const read = readNetwork(spec, `networks.${name}`, problems);
      if (read) networks[name] = read;
    }
    if (!NETWORKS.some((name) => body.networks && (body.networks as Fields)[name] !== undefined))
      problems.push('networks must name mainnet or testnet');
  }
  if (problems.length > 0) return { ok: false, problems };
  const { uuid, name, version } = body as { uuid: string; name: string; version: number };
  return { ok: true, predicate: { uuid, name, version, chain: 'stacks', networks } };
}

function readNetwork(spec: unknown, at: string, problems: string[]): NetworkPredicate | undefined {
  if (!isObject(spec)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  const before = problems.length;
  const ifThis = readScope(spec.if_this, `${at}.if_this`, problems);
  const thenThat = readAction(spec.then_that, `${at}.then_that`, problems);
  const read: NetworkPredicate = { if_this: ifThis as StacksScope, then_that: thenThat as PredicateAction };
  for (const field of ['start_block', 'end_block', 'expire_after_occurrence'] as const) {
    const value = spec[field];
    if (value === undefined || value === null) continue;
    if (!isHeight(value)) problems.push(`${at}.${field} must be a non-negative integer`);
    else read[field] = value;
  }
  if (read.expire_after_occurrence === 0) problems.push(`${at}.expire_after_occurrence must be at least 1`);
  if (read.start_block !== undefined && read.end_block !== undefined && read.end_block < read.start_block)
    problems.push(`${at}.end_block must not be below start_block`);
  for (const field of ['decode_clarity_values', 'include_contract_abi', 'capture_all_events'] as const) {
    const value = spec[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') problems.push(`${at}.${field} must be true or false`);
    else read[field] = value;
  }
  if (spec.blocks !== undefined && spec.blocks !== null)
    problems.push(`${at}.blocks is not supported: use start_block and end_block`);
  return problems.length === before ? read : undefined;
}

/** Read one `if_this`; pushes problems and returns undefined when it is wrong. */
export function readScope(value: unknown, at: string, problems: string[]): StacksScope | undefined {
  if (!isObject(value)) return void problems.push(`${at} must be an object with a scope`);
  const scope = value.scope;
  if (typeof scope !== 'string' || !(SCOPES as readonly string[]).includes(scope))
    return void problems.push(`${at}.scope must be one of ${SCOPES.join(', ')}`);
  const before = problems.length;
  const text = (field: string): string => {
    if (!isText(value[field]))
      problems.push(`${at}.${field} must be a string of 1 to ${MAX_TEXT} characters`);
    return value[field] as string;
  };
  let read: StacksScope | undefined;
  switch (scope as (typeof SCOPES)[number]) {
    case 'txid':
      if (typeof value.equals !== 'string' || !TXID.test(value.equals))
        problems.push(`${at}.equals must be a transaction id: 0x and 64 hex digits`);
      read = { scope: 'txid', equals: String(value.equals).toLowerCase() };
      break;
    case 'block_height':
      read = { scope: 'block_height', ...(readHeightRule(value, at, problems) as BlockHeightRule) };
      break;
    case 'ft_event':
    case 'nft_event':
      read = {
        scope: scope as 'ft_event' | 'nft_event',
        asset_identifier: text('asset_identifier'),
        actions: readActions(value.actions, `${at}.actions`, TOKEN_ACTIONS, problems),
      };
      break;
    case 'stx_event':
      read = {
        scope: 'stx_event',
        actions: readActions(value.actions, `${at}.actions`, STX_ACTIONS, problems),
      };
      break;
    case 'print_event':
      read = readPrintEvent(value, at, text, problems);
      break;
    case 'contract_call':
      read = {
        scope: 'contract_call',
        contract_identifier: text('contract_identifier'),
        method: text('method'),
      };
      break;
    case 'contract_deployment':
      read = readDeployment(value, at, text, problems);
      break;
    case 'signer_message':
      read = readSignerMessage(value, at, problems);
      break;
  }
  return problems.length === before ? read : undefined;
}

function readHeightRule(value: Fields, at: string, problems: string[]): BlockHeightRule | undefined {
  const given = (['equals', 'higher_than', 'lower_than', 'between'] as const).filter(
    (k) => value[k] !== undefined,
  );
  if (given.length !== 1)
    return void problems.push(`${at} must have exactly one of equals, higher_than, lower_than, between`);
  const rule = given[0]!;
  if (rule !== 'between') {
    if (!isHeight(value[rule])) problems.push(`${at}.${rule} must be a non-negative integer`);
    return { [rule]: value[rule] } as BlockHeightRule;
  }
  const range = value.between;
  if (!Array.isArray(range) || range.length !== 2 || !range.every(isHeight) || range[0] > range[1])
    return void problems.push(
      `${at}.between must be [low, high], two non-negative integers with low <= high`,
    );
  return { between: [range[0], range[1]] };
}

function readPrintEvent(
  value: Fields,
  at: string,
  text: (f: string) => string,
  problems: string[],
): StacksScope {
  const contract = text('contract_identifier');
  if ((value.contains === undefined) === (value.matches_regex === undefined)) {
    problems.push(`${at} must have exactly one of contains, matches_regex`);
    return { scope: 'print_event', contract_identifier: contract, contains: '' };
  }
  if (value.contains !== undefined)
    return { scope: 'print_event', contract_identifier: contract, contains: text('contains') };
  const pattern = text('matches_regex');
  if (typeof pattern === 'string') {
    const refusal = checkPrintPattern(pattern);
    if (refusal) problems.push(`${at}.matches_regex ${refusal}`);
  }
  return { scope: 'print_event', contract_identifier: contract, matches_regex: pattern };
}

function readDeployment(
  value: Fields,
  at: string,
  text: (f: string) => string,
  problems: string[],
): StacksScope {
  if ((value.deployer === undefined) === (value.implement_trait === undefined)) {
    problems.push(`${at} must have exactly one of deployer, implement_trait`);
    return { scope: 'contract_deployment', deployer: '*' };
  }
  if (value.deployer !== undefined) return { scope: 'contract_deployment', deployer: text('deployer') };
  const trait = value.implement_trait;
  if (typeof trait !== 'string' || !(TRAITS as readonly string[]).includes(trait))
    problems.push(`${at}.implement_trait must be one of ${TRAITS.join(', ')}`);
  return { scope: 'contract_deployment', implement_trait: trait as DeployedTrait };
}

function readSignerMessage(value: Fields, at: string, problems: string[]): StacksScope | undefined {
  if ((value.after_timestamp === undefined) === (value.signer_pubkey === undefined))
    return void problems.push(`${at} must have exactly one of after_timestamp, signer_pubkey`);
  if (value.after_timestamp !== undefined) {
    if (!isHeight(value.after_timestamp))
      problems.push(`${at}.after_timestamp must be a non-negative integer`);
    return { scope: 'signer_message', after_timestamp: value.after_timestamp as number };
  }
  if (typeof value.signer_pubkey !== 'string' || !/^(0x)?[0-9a-fA-F]{66}$/.test(value.signer_pubkey))
    problems.push(`${at}.signer_pubkey must be a compressed public key: 66 hex digits`);
  return { scope: 'signer_message', signer_pubkey: String(value.signer_pubkey) };
}

function readActions<A extends string>(
  value: unknown,
  at: string,
  allowed: readonly A[],
  problems: string[],
): A[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((a) => allowed.includes(a as A))) {
    problems.push(`${at} must be a non-empty list of ${allowed.join(', ')}`);
    return [];
  }
  return [...new Set(value as A[])];
}

function readAction(value: unknown, at: string, problems: string[]): PredicateAction | undefined {
  if (!isObject(value) || (value.http_post === undefined) === (value.file_append === undefined))
    return void problems.push(`${at} must have exactly one of http_post, file_append`);
  if (value.file_append !== undefined) {
    const path = isObject(value.file_append) ? value.file_append.path : undefined;
    if (!isText(path)) return void problems.push(`${at}.file_append.path must be a non-empty string`);
    return { file_append: { path } };
  }
  const post = value.http_post;
  const url = isObject(post) ? post.url : undefined;
  const header = isObject(post) ? post.authorization_header : undefined;
  if (typeof url !== 'string' || !isHttpUrl(url))
    problems.push(`${at}.http_post.url must be an http or https URL`);
  // A header value cannot hold line breaks or other control characters (1.x refused them too).
  if (typeof header !== 'string' || !isHeaderValue(header))
    problems.push(`${at}.http_post.authorization_header must be a string usable as a header value`);
  return { http_post: { url: url as string, authorization_header: header as string } };
}

function isHeaderValue(text: string): boolean {
  if (text.length > 8192) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return false;
  }
  return true;
}

function isHttpUrl(text: string): boolean {
  if (text.length > 2048 || !URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

function isHeight(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
