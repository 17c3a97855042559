import { readFileSync } from 'node:fs';

/**
 * A JSON body of about `bytes` bytes shaped like a very busy block: many small event objects, which
 * is what makes parsing one expensive in memory (a single long string would not be).
 */
export function bigBlockBody(bytes: number): Buffer {
  const event = (i: number) =>
    JSON.stringify({
      txid: `0x${i.toString(16).padStart(64, '0')}`,
      event_index: i,
      committed: true,
      type: 'stx_transfer_event',
      stx_transfer_event: {
        sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
        recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
        amount: String(1000 + i),
      },
    });
  const head = '{"block_hash":"0x00","block_height":1,"transactions":[],"events":[';
  const parts: string[] = [head];
  let size = head.length + 2;
  for (let i = 0; size < bytes; i++) {
    const text = (i === 0 ? '' : ',') + event(i);
    parts.push(text);
    size += text.length;
  }
  parts.push(']}');
  return Buffer.from(parts.join(''));
}

/**
 * Post `body` to the observer as a node does: again after each 503 (after its Retry-After) or a
 * broken connection (a keep-alive socket the busy server closed), until it gets another answer.
 */
export async function postAsNode(
  url: string,
  body: Buffer,
  maxTries = 1_000,
): Promise<{ status: number; refusals: number }> {
  for (let refusals = 0; ; refusals++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).catch(() => undefined);
    await res?.arrayBuffer();
    if ((res && res.status !== 503) || refusals + 1 >= maxTries)
      return { status: res?.status ?? 0, refusals };
    const wait = Number(res?.headers.get('retry-after') ?? 1);
    await new Promise((r) => setTimeout(r, Math.min(Number.isFinite(wait) ? wait : 1, 5) * 1000));
  }
}

/** A process's resident memory now and at its peak so far, in MiB (Linux `/proc`). */
export function residentMemory(pid: number): { nowMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { nowMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}
