import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import { storeUnavailable } from '../../../core/hooks/errors.js';
import { silentLogger } from '../../../adapters/system/index.js';
import type { ApiState } from '../../../adapters/http-koa/api-state.js';
import { errorResponse } from '../../../adapters/http-koa/error-response.js';

describe('errorResponse', () => {
  it('answers an unavailable store with 503, Retry-After and a body that says to retry', async () => {
    const app = new Koa<ApiState>();
    app.use(errorResponse(silentLogger));
    app.use(() => {
      throw storeUnavailable('the database is unreachable', 7);
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('7');
      expect(await res.json()).to.deep.equal({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'store unavailable: the database is unreachable; retry later',
      });
    } finally {
      server.close();
    }
  });
});
