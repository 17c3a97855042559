import { setTimeout as sleep } from 'node:timers/promises';
import type { NetworkPredicate } from '../../core/chainhook-v1/predicate.js';
import type { ChainhookV1Payload } from '../../core/chainhook-v1/v1-payload.js';
import { nextStep } from '../../core/delivery/retry-policy.js';
import { serializePayload } from '../../core/payload/index.js';
import type { SendResult } from '../../core/ports/webhook-sender.js';
import { createHttpWebhookSender } from '../../adapters/delivery-got/index.js';
import { createFolderPayloadFiles } from '../../adapters/payload-files-fs/index.js';
import { ConfigError, type ServerConfig } from '../server/config.js';

/** Where a scan's payloads go, one at a time, in order. */
export type PayloadSink = {
  take(payload: ChainhookV1Payload): Promise<void>;
  close(): Promise<void>;
};

/**
 * The predicate's own `then_that`, for a scan run with `--then-that`: each payload is posted to
 * `http_post.url` with its `authorization_header`, or appended to `file_append.path` (inside
 * STACKHOOKS_V1_FILE_APPEND_DIR, or else the working directory, as 1.x took it). A payload is
 * tried on STACKHOOKS_RETRY_SCHEDULE; when it cannot be delivered the scan stops there, saying at
 * which height to start again, rather than skipping it. The scan is the operator's own command,
 * so receivers on this machine or network are allowed.
 */
export async function predicateAction(part: NetworkPredicate, config: ServerConfig): Promise<PayloadSink> {
  const action = part.then_that;
  if ('file_append' in action) {
    const files = createFolderPayloadFiles({
      folder: config.v1FileAppendDir ?? process.cwd(),
      offReason: 'is refused',
    });
    const placed = await files.place(action.file_append.path);
    if ('refusal' in placed) throw new ConfigError(`then_that.file_append.path ${placed.refusal}`);
    return {
      take: (payload) => deliver(payload, config, (body) => files.append(placed.url, body)),
      close: async () => {},
    };
  }
  const sender = createHttpWebhookSender({ allowPrivateTargets: true });
  const { url, authorization_header } = action.http_post;
  const headers = { 'content-type': 'application/json', authorization: authorization_header };
  return {
    take: (payload) =>
      deliver(payload, config, (body) =>
        sender.send({ url, headers, body, timeoutMs: config.deliveryTimeoutMs }),
      ),
    close: async () => sender.close(),
  };
}

// One payload until it is taken or its retries are used up (then the scan stops, naming the height).
async function deliver(
  payload: ChainhookV1Payload,
  config: ServerConfig,
  attempt: (body: string) => Promise<SendResult>,
): Promise<void> {
  const body = serializePayload(payload);
  for (let attempts = 1; ; attempts++) {
    const result = await attempt(body);
    const step = nextStep(result, attempts, config.retryScheduleMs);
    if (step.kind === 'delivered') return;
    if (step.kind === 'give_up') {
      const height = payload.apply[0]?.block_identifier.index;
      throw new Error(
        `the payload of block ${height} was not delivered (${step.reason}); ` +
          `the scan stopped there: run it again with --start-block ${height} to go on`,
      );
    }
    const failure = result.error ?? `HTTP ${result.status}`;
    process.stderr.write(
      `attempt ${attempts} for block ${payload.apply[0]?.block_identifier.index} failed (${failure}); ` +
        `trying again in ${(step.delayMs / 1000).toFixed(1)} s\n`,
    );
    await sleep(step.delayMs);
  }
}
