import { expect } from 'chai';
import { RecordingLogger, startTestServer, type TestServer } from '../../support/api-server.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

if (!(await postgresAvailable())) {
  describe('the delivery lease at start', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('the delivery lease at start', function () {
    this.timeout(30_000);
    let url: string;
    let app: TestServer | undefined;
    beforeEach(() => {
      url = freshSchemaUrl('lease');
    });
    afterEach(async () => {
      await app?.stop();
      app = undefined;
      await dropSchema(url);
    });

    const leaseWarnings = (logger: RecordingLogger) =>
      logger.lines.filter((l) => l.level === 'warn' && l.message.includes('delivery lease'));

    it('warns at the start of a worker whose lease is not longer than its delivery timeout, naming both', async () => {
      const logger = new RecordingLogger();
      const env = { STACKHOOKS_DELIVERY_LEASE: '5s', STACKHOOKS_DELIVERY_TIMEOUT: '10s' };
      app = await startTestServer({ STACKHOOKS_DATABASE_URL: url, ...env }, logger);
      const [warning] = leaseWarnings(logger);
      expect(warning?.fields).to.include({ lease_ms: 5_000, timeout_ms: 10_000 });
      expect(String(warning.fields.fix)).to.include('STACKHOOKS_DELIVERY_LEASE');
    });

    it('says nothing of the lease when it is longer than the timeout', async () => {
      const logger = new RecordingLogger();
      app = await startTestServer({ STACKHOOKS_DATABASE_URL: url }, logger);
      expect(leaseWarnings(logger)).to.deep.equal([]);
    });
  });
}
