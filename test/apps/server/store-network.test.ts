import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../../adapters/system/index.js';
import { createStackhooks } from '../../../apps/server/container.js';
import {
  NETWORK_FILE,
  StoreNetworkError,
  claimDataFolderNetwork,
} from '../../../apps/server/store-network.js';
import { sampleDefinition } from '../../support/definitions.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { freePort, runCli } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('one store, one network', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** `stackhooks serve` on `env`, which should exit before it listens. */
  async function serve(env: Record<string, string>) {
    return runCli(['serve'], {
      STACKHOOKS_HOST: '127.0.0.1',
      STACKHOOKS_PORT: String(await freePort()),
      STACKHOOKS_OBSERVER_PORT: '0',
      ...env,
    });
  }

  describe('claimDataFolderNetwork', () => {
    it('records the network in a new folder, then passes the same network', async () => {
      const dataDir = join(dir, 'data');
      expect(await claimDataFolderNetwork(dataDir, 'mainnet', 5)).to.deep.equal({ recorded: true });
      expect(JSON.parse(await readFile(join(dataDir, NETWORK_FILE), 'utf8'))).to.deep.equal({
        network: 'mainnet',
        recorded_at: 5,
      });
      expect(await claimDataFolderNetwork(dataDir, 'mainnet', 6)).to.deep.equal({ recorded: false });
    });

    it('refuses a folder recorded for the other network, naming both', async () => {
      await claimDataFolderNetwork(dir, 'mainnet', 5);
      const refusal = await claimDataFolderNetwork(dir, 'testnet', 6).catch((err: unknown) => err);
      expect(refusal).to.be.instanceOf(StoreNetworkError);
      expect((refusal as Error).message).to.match(
        /^the data folder .* was created for mainnet, and this process serves testnet/,
      );
    });
  });

  it('refuses to start as testnet on a mainnet data folder, with a message naming both, exiting non-zero', async () => {
    const first = await createStackhooks({
      dataDir: dir,
      network: 'mainnet',
      delivery: { allowPrivateTargets: true },
      adapters: { logger: silentLogger },
    });
    await first.registry.register('owner', sampleDefinition());
    await first.close();
    const run = await serve({ STACKHOOKS_DATA_DIR: dir, STACKHOOKS_NETWORK: 'testnet' });
    expect(run.code).to.equal(1);
    expect(run.out).to.include(
      `stackhooks: the data folder ${dir} was created for mainnet, and this process serves testnet (STACKHOOKS_NETWORK)`,
    );
    expect(run.out).to.not.include('api listening');
  });

  it('starts again on its own network', async () => {
    await (
      await createStackhooks({ dataDir: dir, network: 'testnet', adapters: { logger: silentLogger } })
    ).close();
    const again = await createStackhooks({
      dataDir: dir,
      network: 'testnet',
      adapters: { logger: silentLogger },
    });
    await again.close();
  });
});

if (await postgresAvailable()) {
  describe('one store, one network (Postgres)', function () {
    this.timeout(60_000);
    let url: string;
    let dir: string;
    beforeEach(async () => {
      url = freshSchemaUrl('network');
      dir = await makeTempDir();
    });
    afterEach(async () => {
      await dropSchema(url);
      await rm(dir, { recursive: true, force: true });
    });

    it('refuses to start as testnet on a mainnet schema, with a message naming both, exiting non-zero', async () => {
      await (
        await createStackhooks({
          databaseUrl: url,
          dataDir: dir,
          network: 'mainnet',
          adapters: { logger: silentLogger },
        })
      ).close();
      const schema = new URL(url).searchParams.get('schema');
      const run = await runCli(['serve'], {
        STACKHOOKS_DATABASE_URL: url,
        STACKHOOKS_DATA_DIR: dir,
        STACKHOOKS_NETWORK: 'testnet',
        STACKHOOKS_HOST: '127.0.0.1',
        STACKHOOKS_PORT: String(await freePort()),
        STACKHOOKS_OBSERVER_PORT: '0',
      });
      expect(run.code).to.equal(1);
      expect(run.out).to.match(
        new RegExp(
          `stackhooks: the database schema "${schema}" at .* was created for mainnet, and this process serves testnet`,
        ),
      );
    });

    it('refuses the other network in process too, and keeps the schema for its own', async () => {
      const open = (network: 'mainnet' | 'testnet') =>
        createStackhooks({ databaseUrl: url, dataDir: dir, network, adapters: { logger: silentLogger } });
      await (await open('testnet')).close();
      const refusal = await open('mainnet').catch((err: unknown) => err);
      expect(refusal).to.be.instanceOf(StoreNetworkError);
      await (await open('testnet')).close();
    });
  });
}
