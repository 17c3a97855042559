import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsContractStore } from '../../../adapters/archive-fs/index.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ABI: ContractAbi = {
  functions: [
    {
      name: 'transfer',
      access: 'public',
      args: [{ name: 'amount', type: 'uint128' }],
      outputs: { type: 'bool' },
    },
  ],
};

describe('FsContractStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-contracts-');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('gives back the ABIs of known contracts, and nothing for unknown ones or ones without an ABI', async () => {
    const store = await openFsContractStore(dir);
    await store.putContracts([
      {
        contract_identifier: 'SP000000000000000000002Q6VF78.token',
        abi: ABI,
        source_code: '(x)',
        clarity_version: 2,
      },
      {
        contract_identifier: 'SP000000000000000000002Q6VF78.no-abi',
        abi: null,
        source_code: '(y)',
        clarity_version: null,
      },
    ]);
    const found = await store.getAbis([
      'SP000000000000000000002Q6VF78.token',
      'SP000000000000000000002Q6VF78.no-abi',
      'SP1.nope',
    ]);
    expect([...found.keys()]).to.deep.equal(['SP000000000000000000002Q6VF78.token']);
    expect(found.get('SP000000000000000000002Q6VF78.token')).to.deep.equal(ABI);
  });

  it('keeps contracts for a store opened again on the same folder', async () => {
    await (
      await openFsContractStore(dir)
    ).putContracts([
      {
        contract_identifier: 'SP000000000000000000002Q6VF78.token',
        abi: ABI,
        source_code: '(x)',
        clarity_version: 2,
      },
    ]);
    const again = await openFsContractStore(dir);
    expect((await again.getAbis(['SP000000000000000000002Q6VF78.token'])).size).to.equal(1);
  });

  it('keeps the last of a contract given twice, and every contract of a large batch', async () => {
    const store = await openFsContractStore(dir);
    const many = Array.from({ length: 300 }, (_, i) => ({
      contract_identifier: `SP000000000000000000002Q6VF78.c${i}`,
      abi: ABI,
      source_code: `(c${i})`,
      clarity_version: 2,
    }));
    const redeployed = { ...many[0], abi: { ...ABI, functions: [] } };
    await store.putContracts([...many, redeployed]);
    const found = await store.getAbis(many.map((c) => c.contract_identifier));
    expect(found.size).to.equal(300);
    expect(found.get(many[0].contract_identifier)).to.deep.equal(redeployed.abi);
  });

  it('keeps an ABI learned without a deploy, for a store opened again on the same folder', async () => {
    const id = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.market';
    await (await openFsContractStore(dir)).putAbis([{ contract_identifier: id, abi: ABI }]);
    const again = await openFsContractStore(dir);
    expect((await again.getAbis([id])).get(id)).to.deep.equal(ABI);
  });

  it("keeps a deploy's ABI over one learned later, and lets a later deploy replace a learned one", async () => {
    const store = await openFsContractStore(dir);
    const learned: ContractAbi = { functions: [] };
    const deployed = 'SP000000000000000000002Q6VF78.deployed';
    const fetched = 'SP000000000000000000002Q6VF78.fetched';
    await store.putContracts([
      { contract_identifier: deployed, abi: ABI, source_code: '(x)', clarity_version: 2 },
    ]);
    await store.putAbis([
      { contract_identifier: deployed, abi: learned },
      { contract_identifier: fetched, abi: learned },
    ]);
    await store.putContracts([
      { contract_identifier: fetched, abi: ABI, source_code: '(y)', clarity_version: 2 },
    ]);
    const found = await store.getAbis([deployed, fetched]);
    expect(found.get(deployed)).to.deep.equal(ABI);
    expect(found.get(fetched)).to.deep.equal(ABI);
  });

  it('keeps an ABI learned for a contract whose deploy came without one', async () => {
    const store = await openFsContractStore(dir);
    const id = 'SP000000000000000000002Q6VF78.no-abi';
    await store.putContracts([
      { contract_identifier: id, abi: null, source_code: '(y)', clarity_version: null },
    ]);
    await store.putAbis([{ contract_identifier: id, abi: ABI }]);
    expect((await store.getAbis([id])).get(id)).to.deep.equal(ABI);
  });
});
