export {
  GotWebhookSender,
  createGotWebhookSender,
  type GotWebhookSenderOptions,
} from './got-webhook-sender.js';
export { HttpWebhookSender, createHttpWebhookSender } from './http-webhook-sender.js';
export type { WebhookSenderOptions } from './send-attempt.js';
export { DnsTargetGuard, createDnsTargetGuard, type DnsTargetGuardOptions } from './dns-target-guard.js';
export { classifyAddress, type AddressCategory } from './address-class.js';
export type { HostLookup } from './target-resolution.js';
