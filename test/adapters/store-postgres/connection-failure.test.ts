import { expect } from 'chai';
import { asStoreFailure } from '../../../adapters/store-postgres/connection-failure.js';
import { StackhooksError } from '../../../core/hooks/errors.js';

/** An error as node-pg raises it for a statement the server refused with SQLSTATE `code`. */
function serverError(code: string): Error {
  return Object.assign(new Error(`the server said ${code}`), { code });
}

describe('asStoreFailure', () => {
  const couldNotNow: Record<string, string> = {
    '40001': 'a serialization failure',
    '40P01': 'a deadlock',
    '55P03': 'a lock not had in time',
    '57014': 'a cancelled statement',
    '53000': 'resources short',
    '53100': 'a full disk',
    '53200': 'no memory',
    '53400': 'a configured limit',
    '58000': 'a system error',
    '58030': 'an I/O error',
  };
  for (const [code, what] of Object.entries(couldNotNow)) {
    it(`makes ${what} (${code}) a 503-kind failure that keeps the driver's error`, () => {
      const err = serverError(code);
      const failure = asStoreFailure(err);
      expect(failure).to.be.instanceOf(StackhooksError).and.include({ code: 'unavailable' });
      expect((failure as Error).cause).to.equal(err);
    });
  }

  it('says a full disk is the reason when the server has no disk space left', () => {
    expect((asStoreFailure(serverError('53100')) as Error).message).to.include('no disk space left');
  });

  for (const code of ['ECONNREFUSED', 'EADDRNOTAVAIL', 'EMFILE']) {
    it(`says the database cannot be reached when a connection fails with ${code}`, () => {
      const failure = asStoreFailure(Object.assign(new Error(`connect ${code}`), { code }));
      expect(failure).to.be.instanceOf(StackhooksError).and.include({ code: 'unavailable' });
      expect((failure as Error).message).to.include('cannot be reached');
    });
  }

  for (const code of ['42P01', '23505', '22P02', 'XX000', 'SH403']) {
    it(`passes SQLSTATE ${code}, an error of the statement itself, on as it is`, () => {
      const err = serverError(code);
      expect(asStoreFailure(err)).to.equal(err);
    });
  }
});
