import { inject, injectable } from 'inversify';
import { ACCOUNT_STORE, type AccountStore } from '../ports/account-store.js';
import { ID_SOURCE, type IdSource } from '../ports/id-source.js';

/** The owner's webhook consumer secret: rotate, read, remove (compat.md sections 2 and 7). */
@injectable()
export class ConsumerSecrets {
  constructor(
    @inject(ACCOUNT_STORE) private readonly accounts: AccountStore,
    @inject(ID_SOURCE) private readonly ids: IdSource,
  ) {}

  /** A new random 32-byte secret as hex; the old one stops working at once. */
  async rotate(owner: string): Promise<{ secret: string }> {
    const secret = this.ids.randomHex(32);
    await this.accounts.setConsumerSecret(owner, secret);
    return { secret };
  }

  /** The current secret, or null when none is set. */
  async get(owner: string): Promise<{ secret: string | null }> {
    return { secret: await this.accounts.getConsumerSecret(owner) };
  }

  /** Remove the secret: deliveries go out unsigned. */
  async remove(owner: string): Promise<void> {
    await this.accounts.setConsumerSecret(owner, null);
  }
}
