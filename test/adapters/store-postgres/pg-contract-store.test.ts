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

    it('keeps an ABI learned without a deploy, read back by another store on the same schema', async () => {
      const id = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.market';
      await store.putAbis([
        { contract_identifier: id, abi: ABI },
        { contract_identifier: id, abi: ABI },
      ]);
      expect((await new PgContractStore(db).getAbis([id])).get(id)).to.deep.equal(ABI);
      const { rows } = await db.pool.query(
        'SELECT source_code, clarity_version FROM contracts WHERE contract_identifier = $1',
        [id],
      );
      expect(rows).to.deep.equal([{ source_code: null, clarity_version: null }]);
    });

    it("keeps a deploy's ABI over one learned later, and lets a later deploy replace a learned one", async () => {
      const learned: ContractAbi = { functions: [] };
      await store.putContracts([deployed('SP3.deployed', ABI), deployed('SP3.no-abi', null)]);
      await store.putAbis([
        { contract_identifier: 'SP3.deployed', abi: learned },
        { contract_identifier: 'SP3.no-abi', abi: learned },
        { contract_identifier: 'SP3.fetched', abi: learned },
      ]);
      await store.putContracts([deployed('SP3.fetched', ABI)]);
      const found = await store.getAbis(['SP3.deployed', 'SP3.no-abi', 'SP3.fetched']);
      expect(Object.fromEntries(found)).to.deep.equal({
        'SP3.deployed': ABI,
        'SP3.no-abi': learned,
        'SP3.fetched': ABI,
      });
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
