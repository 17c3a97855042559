import { expect } from 'chai';
import { PgContractStore } from '../../../adapters/store-postgres/pg-contract-store.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { DeployedContract } from '../../../core/stacks-codec/normalize-block.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

const ABI: ContractAbi = {
  functions: [
    {
      name: 'transfer',
      access: 'public',
      args: [
        { name: 'amount', type: 'uint128' },
        { name: 'memo', type: { optional: { buffer: { length: 34 } } } },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
    },
  ],
  fungible_tokens: [{ name: 'token' }],
  epoch: 'Epoch25',
  clarity_version: 'Clarity2',
};

function deployed(
  id: string,
  abi: ContractAbi | null,
  source = '(define-public (transfer))',
): DeployedContract {
  return { contract_identifier: id, abi, source_code: source, clarity_version: abi === null ? null : 2 };
}

// Mocha decides what to register when the module loads, so the server is asked here, once.
if (!(await postgresAvailable())) {
  describe('PgContractStore', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('PgContractStore', () => {
    let db: TestDatabase;
    let store: PgContractStore;

    beforeEach(async () => {
      db = await openTestDatabase('contracts');
      store = new PgContractStore(db);
    });

    afterEach(async () => db.drop());

    it('gives back the ABIs of the known contracts among those asked, and nothing for the others', async () => {
      const token = 'SP000000000000000000002Q6VF78.token';
      await store.putContracts([
        deployed(token, ABI),
        deployed('SP000000000000000000002Q6VF78.no-abi', null),
      ]);
      const found = await store.getAbis([
        token,
        'SP000000000000000000002Q6VF78.no-abi',
        'SP1.unknown',
        token,
      ]);
      expect([...found.keys()]).to.deep.equal([token]);
      expect(found.get(token)).to.deep.equal(ABI);
      expect(await store.getAbis([])).to.deep.equal(new Map());
    });

    it('replaces a contract stored again, even twice in one call', async () => {
      const id = 'SP3.redeployed';
      await store.putContracts([deployed(id, null)]);
      const second = { ...ABI, epoch: 'Epoch30' };
      await store.putContracts([deployed(id, ABI), deployed(id, second)]);
      expect((await store.getAbis([id])).get(id)).to.deep.equal(second);
    });
  });
}
