import { expect } from 'chai';
import { buildDashboard } from '../../../scripts/build-dashboard.mjs';
import { startTestServer, type TestServer } from '../../support/api-server.js';

describe('the dashboard setting of the server', function () {
  this.timeout(60_000);
  let servers: TestServer[] = [];

  before(() => buildDashboard());

  afterEach(async () => {
    await Promise.all(servers.map((t) => t.stop()));
    servers = [];
  });

  async function dashboardStatus(env: Record<string, string>): Promise<number> {
    const t = await startTestServer(env);
    servers.push(t);
    return (await fetch(`${t.baseUrl}/dashboard/`)).status;
  }

  it('serves the dashboard on the API port by default', async () => {
    expect(await dashboardStatus({})).to.equal(200);
  });

  it('serves no dashboard with STACKHOOKS_DASHBOARD=off', async () => {
    expect(await dashboardStatus({ STACKHOOKS_DASHBOARD: 'off' })).to.equal(404);
  });
});
