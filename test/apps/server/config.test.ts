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

  describe('STACKHOOKS_DASHBOARD', () => {
    it('serves the dashboard by default', () => {
      expect(readServerConfig({}).dashboard).to.equal(true);
    });

    it('turns the dashboard off with off or false', () => {
      expect(readServerConfig({ STACKHOOKS_DASHBOARD: 'off' }).dashboard).to.equal(false);
      expect(readServerConfig({ STACKHOOKS_DASHBOARD: 'false' }).dashboard).to.equal(false);
    });

    it('names the variable when the value is not true or false', () => {
      expect(() => readServerConfig({ STACKHOOKS_DASHBOARD: 'maybe' }))
        .to.throw(ConfigError)
        .with.property('message', 'STACKHOOKS_DASHBOARD must be true or false, got "maybe"');
    });
  });

  describe('STACKHOOKS_DELIVERED_BODY_RETENTION', () => {
    it('keeps delivered bodies an hour by default', () => {
      expect(readServerConfig({}).deliveredBodyRetentionMs).to.equal(3_600_000);
    });

    it('takes a duration from the variable, and from --delivered-body-retention over it', () => {
      const env = { STACKHOOKS_DELIVERED_BODY_RETENTION: '10m' };
      expect(readServerConfig(env).deliveredBodyRetentionMs).to.equal(600_000);
      expect(readServerConfig(env, { deliveredBodyRetention: '30s' }).deliveredBodyRetentionMs).to.equal(
        30_000,
      );
    });

    it('names the flag when its value is not a duration', () => {
      expect(() => readServerConfig({}, { deliveredBodyRetention: 'a while' }))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(/^--delivered-body-retention must be a duration/);
    });
  });

  describe('flags', () => {
    it('lets --observer-port override STACKHOOKS_OBSERVER_PORT', () => {
      const config = readServerConfig({ STACKHOOKS_OBSERVER_PORT: '20455' }, { observerPort: '30455' });
      expect(config.observerPort).to.equal(30455);
    });

    it('names the variable when the bad value came from it, and the flag when it came from one', () => {
      expect(() => readServerConfig({ STACKHOOKS_PORT: 'x' }))
        .to.throw(ConfigError)
        .with.property('message', 'STACKHOOKS_PORT must be an integer from 0 to 65535, got "x"');
      expect(() => readServerConfig({ STACKHOOKS_PORT: '3000' }, { port: 'x' }))
        .to.throw(ConfigError)
        .with.property('message', '--port must be an integer from 0 to 65535, got "x"');
    });
  });
});
