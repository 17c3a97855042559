import { inject, injectable } from 'inversify';
import { ACCOUNT_STORE, type AccountStore } from '../ports/account-store.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';
import { standardWebhooksSecret } from '../delivery/sign-payload.js';

/**
 * A consumer secret as the API shows it: the hex form the official client's schema requires, and
 * the same key in the `whsec_…` form Standard Webhooks libraries take (null both when none is set).
 */
export type ConsumerSecretView = { secret: string | null; standard_webhooks_secret: string | null };

/** The owner's webhook consumer secret: rotate, read, remove. */
@injectable()
export class ConsumerSecrets {
  constructor(
    @inject(ACCOUNT_STORE) private readonly accounts: AccountStore,
    @inject(ID_SOURCE) private readonly ids: IdSource,
  ) {}

  /** A new random 32-byte secret; the old one stops working at once. */
  async rotate(
    owner: string,
  ): Promise<ConsumerSecretView & { secret: string; standard_webhooks_secret: string }> {
    const secret = this.ids.randomHex(32);
    await this.accounts.setConsumerSecret(owner, secret);
    return { secret, standard_webhooks_secret: standardWebhooksSecret(secret) };
  }

  /** The current secret, or nulls when none is set. */
  async get(owner: string): Promise<ConsumerSecretView> {
    const secret = await this.accounts.getConsumerSecret(owner);
    return { secret, standard_webhooks_secret: secret === null ? null : standardWebhooksSecret(secret) };
  }

  /** Remove the secret: deliveries go out unsigned. */
  async remove(owner: string): Promise<void> {
    await this.accounts.setConsumerSecret(owner, null);
  }
}
