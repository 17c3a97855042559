import { expect } from 'chai';
import { ConfigError, readServerConfig } from '../../../apps/server/config.js';

describe('readServerConfig', () => {
  describe('STACKHOOKS_DATABASE_WAIT', () => {
    it('waits 60 s for a late database by default', () => {
      expect(readServerConfig({}).databaseWaitMs).to.equal(60_000);
    });

    it('takes a duration, 0 meaning no wait', () => {
      expect(readServerConfig({ STACKHOOKS_DATABASE_WAIT: '5m' }).databaseWaitMs).to.equal(300_000);
      expect(readServerConfig({ STACKHOOKS_DATABASE_WAIT: '0' }).databaseWaitMs).to.equal(0);
    });

    it('names the variable when the value is not a duration', () => {
      expect(() => readServerConfig({ STACKHOOKS_DATABASE_WAIT: 'soon' }))
        .to.throw(ConfigError)
        .with.property(
          'message',
          'STACKHOOKS_DATABASE_WAIT must be a duration like 500ms, 10s, 2m, 1h or 7d, got "soon"',
        );
    });
  });
});
