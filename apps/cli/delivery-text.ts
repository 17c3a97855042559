import type { IncomingHttpHeaders } from 'node:http';

// What `stackhooks receive` prints for one delivery. The body comes off the wire, so every field is
// read as possibly missing: a malformed delivery is shown as far as it goes, never a crash.

// A JSON value read field by field; every field may be missing or of another type.
type Loose = { [key: string]: Loose } & Partial<Record<string, unknown>>;

/** The readable text of one webhook delivery: headers of note, hook, blocks, transactions, operations. */
export function describeDelivery(
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  verdict: string,
): string {
  const lines = [
    `POST ${path}  id ${headers['webhook-id'] ?? '-'}  timestamp ${headers['webhook-timestamp'] ?? '-'}  ${verdict}`,
  ];
  let payload: Loose;
  try {
    payload = JSON.parse(body.toString('utf8')) as Loose;
  } catch {
    lines.push(`  body is not JSON (${body.length} bytes): ${body.toString('utf8', 0, 200)}`);
    return lines.join('\n');
  }
  const hook = payload?.chainhook;
  lines.push(`  hook ${text(hook?.uuid)} "${text(hook?.name)}"  ${text(payload?.event?.network)}`);
  for (const [kind, blocks] of [
    ['rollback', payload?.event?.rollback],
    ['apply', payload?.event?.apply],
  ] as const) {
    for (const block of list(blocks)) lines.push(...describeBlock(kind, block));
  }
  return lines.join('\n');
}

function describeBlock(kind: 'apply' | 'rollback', block: Loose): string[] {
  const transactions = list(block?.transactions);
  const id = block?.block_identifier;
  const count = `${transactions.length} ${transactions.length === 1 ? 'transaction' : 'transactions'}`;
  const lines = [`  ${kind.padEnd(8)} #${text(id?.index)} ${short(id?.hash)}  (${count})`];
  for (const tx of transactions) {
    const meta = tx?.metadata;
    lines.push(
      `    tx ${short(tx?.transaction_identifier?.hash)} ${text(meta?.type)} ${text(meta?.status)} from ${text(meta?.sender_address)}`,
    );
    for (const op of list(tx?.operations)) lines.push(`      ${describeOperation(op)}`);
  }
  return lines;
}

function describeOperation(op: Loose): string {
  const type = text(op?.type);
  const head = `${text(op?.operation_identifier?.index)} ${type}`;
  const account = op?.account?.address ? ` ${text(op.account.address)}` : '';
  const meta = op?.metadata;
  switch (type) {
    case 'contract_call':
      return `${head}${account} ${text(meta?.contract_identifier)}.${text(meta?.function_name)}(${describeArgs(meta?.args)})`;
    case 'contract_deploy':
      return `${head}${account} ${text(meta?.contract_identifier)}`;
    case 'contract_log':
      return `${head} ${text(meta?.contract_identifier)} ${text(meta?.topic)} ${clarity(meta?.value)}`;
    case 'stx_lock':
      return `${head}${account} ${amount(op?.amount)} until burn height ${text(meta?.unlock_height)}`;
    default:
      return op?.amount ? `${head}${account} ${amount(op.amount)}` : `${head}${account}`;
  }
}

/** Decoded args as `name: repr`; undecoded ones (one hex string) only by size. */
function describeArgs(args: unknown): string {
  if (args === null || args === undefined) return '';
  if (typeof args === 'string') return `${(args.length - 2) / 2} bytes of undecoded args`;
  return list(args as Loose)
    .map((arg) => (arg?.name ? `${text(arg.name)}: ${clarity(arg)}` : clarity(arg)))
    .join(', ');
}

/** A Clarity value: its repr when decoded, else its hex (shortened). */
function clarity(value: unknown): string {
  if (typeof value === 'string') return value.length > 42 ? `${value.slice(0, 40)}…` : value;
  const repr = (value as Loose)?.repr;
  return typeof repr === 'string' ? repr : clarity((value as Loose)?.hex);
}

/** `-0.00018 STX`, `250 SP….token::name`, `1 SP….nft::name 0x01`: the value in whole units. */
function amount(value: Loose): string {
  const currency = value?.currency;
  const decimals = Number(currency?.decimals) || 0;
  const metadata = currency?.metadata;
  const asset = currency?.symbol ? text(currency.symbol) : text(metadata?.asset_identifier);
  const nftId = text(metadata?.token_type) === 'nft' ? ` ${text(metadata.value)}` : '';
  return `${units(text(value?.value), decimals)} ${asset}${nftId}`;
}

function units(raw: string, decimals: number): string {
  const match = /^(-?)(\d+)$/.exec(raw);
  if (!match || decimals === 0) return raw;
  const digits = match[2].padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${match[1]}${whole}${fraction ? `.${fraction}` : ''}`;
}

function short(hash: unknown): string {
  const value = text(hash);
  return value.length > 16 ? `${value.slice(0, 10)}…${value.slice(-4)}` : value;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function list(value: unknown): Loose[] {
  return Array.isArray(value) ? (value as Loose[]) : [];
}
