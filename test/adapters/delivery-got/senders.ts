import {
  createGotWebhookSender,
  createHttpWebhookSender,
  type WebhookSenderOptions,
} from '../../../adapters/delivery-got/index.js';
import type { WebhookSender } from '../../../core/ports/webhook-sender.js';

/** A sender the shared suites run against, closed after each test. */
export type ClosableSender = WebhookSender & { close(): void };

/** Every webhook sender of the adapter, by name: each must pass the same suites. */
export const SENDERS: [name: string, create: (options: WebhookSenderOptions) => ClosableSender][] = [
  ['HttpWebhookSender', createHttpWebhookSender],
  ['GotWebhookSender', createGotWebhookSender],
];
