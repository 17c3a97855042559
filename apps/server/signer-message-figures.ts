import { counter, type Figure } from '../../adapters/metrics-prometheus/index.js';
import type { SignerMessageDelivery } from '../../core/use-cases/signer-message-delivery.js';

/** The figures of the node's StackerDB posts as `signer_message` predicates take them. */
export function signerMessageFigures(signerMessages: SignerMessageDelivery): Figure[] {
  const counts = () => signerMessages.counts();
  return [
    counter(
      'stackhooks_signer_messages_total',
      'StackerDB slots read for signer_message predicates, by outcome',
      () => [
        { labels: { outcome: 'decoded' }, value: counts().decoded },
        { labels: { outcome: 'malformed' }, value: counts().malformed },
        { labels: { outcome: 'undelivered_kind' }, value: counts().undelivered },
        { labels: { outcome: 'before_first_block' }, value: counts().beforeFirstBlock },
      ],
      ['outcome'],
    ),
    counter(
      'stackhooks_stackerdb_posts_unread_total',
      'StackerDB posts not read because no live predicate takes signer messages',
      () => counts().unread,
    ),
    counter(
      'stackhooks_signer_message_payloads_total',
      'Payloads of signer messages queued',
      () => counts().payloads,
    ),
  ];
}
