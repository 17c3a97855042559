import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ApiKeyRecord } from '../../core/accounts/api-key.js';
import type { AccountStore } from '../../core/ports/account-store.js';

/** A store under test; `reopen` (when the store persists) closes it and opens the same data again. */
export type AccountStoreSubject = {
  store: AccountStore;
  reopen?: () => Promise<AccountStore>;
  cleanup: () => Promise<void>;
};

function newKey(owner: string, createdAt = 1_700_000_000): ApiKeyRecord {
  const id = randomUUID();
  return {
    id,
    owner,
    hash: createHash('sha256').update(`sk_${id}`).digest('hex'),
    created_at: createdAt,
    revoked_at: null,
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call was accepted'),
    (err: unknown) => err,
  );
}

/** The behaviour every AccountStore must show; run it against each adapter with a fresh, empty store. */
export function accountStoreContract(name: string, open: () => Promise<AccountStoreSubject>): void {
  describe(`AccountStore contract: ${name}`, () => {
    let subject: AccountStoreSubject;
    let store: AccountStore;

    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it('finds an added key by its hash exactly as it was given', async () => {
      const key = newKey('alice');
      await store.addKey(key);
      expect(await store.findKeyByHash(key.hash)).to.deep.equal(key);
    });

    it('returns undefined for a hash no key has', async () => {
      await store.addKey(newKey('alice'));
      expect(await store.findKeyByHash('0'.repeat(64))).to.equal(undefined);
    });

    it('lists every key oldest first', async () => {
      const keys = [newKey('alice', 300), newKey('bob', 100), newKey('alice', 200)];
      for (const key of keys) await store.addKey(key);
      expect(await store.listKeys()).to.deep.equal([keys[1], keys[2], keys[0]]);
    });

    it('keeps every one of 50 keys added concurrently', async () => {
      const keys = Array.from({ length: 50 }, (_, index) => newKey(`owner-${index % 5}`, index));
      await Promise.all(keys.map((key) => store.addKey(key)));
      expect(await store.listKeys()).to.deep.equal(keys);
    });

    it('rejects a key whose id or hash is already stored', async () => {
      const key = newKey('alice');
      await store.addKey(key);
      expect(await rejectionOf(store.addKey({ ...newKey('bob'), id: key.id }))).to.be.instanceOf(Error);
      expect(await rejectionOf(store.addKey({ ...newKey('bob'), hash: key.hash }))).to.be.instanceOf(Error);
      expect(await store.listKeys()).to.deep.equal([key]);
    });

    it('revokes an active key once, and still finds it by hash', async () => {
      const key = newKey('alice');
      await store.addKey(key);
      expect(await store.revokeKey(key.id, 1_700_000_500)).to.equal(true);
      expect(await store.findKeyByHash(key.hash)).to.deep.equal({ ...key, revoked_at: 1_700_000_500 });
      expect(await store.revokeKey(key.id, 1_700_000_900)).to.equal(false);
      expect((await store.findKeyByHash(key.hash))?.revoked_at).to.equal(1_700_000_500);
    });

    it('returns false when revoking an unknown key id', async () => {
      await store.addKey(newKey('alice'));
      expect(await store.revokeKey(randomUUID(), 1_700_000_500)).to.equal(false);
    });

    it('returns null for an owner without a consumer secret', async () => {
      expect(await store.getConsumerSecret('alice')).to.equal(null);
    });

    it('sets, replaces and removes each owner’s consumer secret on its own', async () => {
      await store.setConsumerSecret('alice', 'aa'.repeat(32));
      await store.setConsumerSecret('bob', 'bb'.repeat(32));
      await store.setConsumerSecret('alice', 'cc'.repeat(32));
      expect(await store.getConsumerSecret('alice')).to.equal('cc'.repeat(32));
      await store.setConsumerSecret('alice', null);
      expect(await store.getConsumerSecret('alice')).to.equal(null);
      expect(await store.getConsumerSecret('bob')).to.equal('bb'.repeat(32));
      await store.setConsumerSecret('carol', null);
      expect(await store.getConsumerSecret('carol')).to.equal(null);
    });

    it('hands out copies, so editing a key given or returned does not change the store', async () => {
      const key = newKey('alice');
      const original = structuredClone(key);
      await store.addKey(key);
      key.owner = 'mallory';
      (await store.findKeyByHash(key.hash))!.revoked_at = 1;
      (await store.listKeys())[0].owner = 'mallory';
      expect(await store.findKeyByHash(key.hash)).to.deep.equal(original);
    });

    it('keeps keys, revocations and consumer secrets across reopening the store', async function () {
      if (!subject.reopen) throw new Error('this store under test must give reopen');
      const [kept, revoked] = [newKey('alice', 100), newKey('bob', 200)];
      await store.addKey(kept);
      await store.addKey(revoked);
      await store.revokeKey(revoked.id, 300);
      await store.setConsumerSecret('alice', 'aa'.repeat(32));

      const reopened = await subject.reopen!();
      expect(await reopened.listKeys()).to.deep.equal([kept, { ...revoked, revoked_at: 300 }]);
      expect(await reopened.findKeyByHash(kept.hash)).to.deep.equal(kept);
      expect(await reopened.getConsumerSecret('alice')).to.equal('aa'.repeat(32));
      expect(await reopened.getConsumerSecret('bob')).to.equal(null);
    });
  });
}
