import type Router from '@koa/router';
import type { ApiKeys } from '../../core/use-cases/api-keys.js';
import type { ConsumerSecrets } from '../../core/use-cases/consumer-secrets.js';
import type { DeliveryLog } from '../../core/use-cases/delivery-log.js';
import type { HookEvaluations } from '../../core/use-cases/evaluate-hook.js';
import type { HookBackfills } from '../../core/use-cases/hook-backfills.js';
import type { HookRegistry } from '../../core/use-cases/hook-registry.js';
import { invalidInput } from '../../core/hooks/errors.js';
import { ownerOf, type ApiContext, type ApiState } from './api-state.js';

/**
 * On `PATCH /me/{uuid}/enabled` of an interrupted hook from the tip: the first block it skips, from
 * which `POST /me/{uuid}/backfills` sends what it missed.
 */
export const MISSED_FROM_HEADER = 'stackhooks-missed-from-block-height';

/** The use cases the routes call. */
export type HookRouteDeps = {
  registry: HookRegistry;
  secrets: ConsumerSecrets;
  evaluations: HookEvaluations;
  keys: ApiKeys;
  deliveries: DeliveryLog;
  backfills: HookBackfills;
};

/**
 * The routes under `/me`. Fixed paths (`/me/enabled`, `/me/secret`) are
 * registered before `/me/:uuid` so they are never read as a uuid.
 */
export function addHookRoutes(router: Router<ApiState>, deps: HookRouteDeps): void {
  const { registry, secrets, evaluations, deliveries, backfills } = deps;
  const body = (ctx: ApiContext): unknown => (ctx.request as { body?: unknown }).body;
  // A route that takes no body refuses fields, as the others refuse fields they do not know.
  const noFields = (ctx: ApiContext): void => {
    const given = body(ctx);
    const [field] = given !== null && typeof given === 'object' ? Object.keys(given) : [];
    if (field !== undefined)
      throw invalidInput([{ field, message: 'is not a field: this request takes no body' }]);
  };

  router.post('/me', async (ctx) => {
    ctx.body = await registry.register(ownerOf(ctx), body(ctx));
  });
  router.get('/me', async (ctx) => {
    ctx.body = await registry.list(ownerOf(ctx), ctx.query);
  });
  router.patch('/me/enabled', async (ctx) => {
    ctx.body = await registry.bulkEnable(ownerOf(ctx), body(ctx));
  });
  router.post('/me/secret', async (ctx) => {
    noFields(ctx);
    ctx.body = await secrets.rotate(ownerOf(ctx));
  });
  router.get('/me/secret', async (ctx) => {
    ctx.body = await secrets.get(ownerOf(ctx));
  });
  router.delete('/me/secret', async (ctx) => {
    await secrets.remove(ownerOf(ctx));
    ctx.status = 204;
  });
  router.get('/me/:uuid', async (ctx) => {
    ctx.body = await registry.get(ownerOf(ctx), ctx.params.uuid);
  });
  router.patch('/me/:uuid', async (ctx) => {
    ctx.body = await registry.update(ownerOf(ctx), ctx.params.uuid, body(ctx));
  });
  router.delete('/me/:uuid', async (ctx) => {
    await registry.delete(ownerOf(ctx), ctx.params.uuid);
    ctx.status = 204;
  });
  router.patch('/me/:uuid/enabled', async (ctx) => {
    const { missedFrom } = await registry.enable(ownerOf(ctx), ctx.params.uuid, body(ctx));
    // Hiro's answer is a bare 204; the offer of what an interrupted hook skips rides in a header.
    if (missedFrom !== undefined) ctx.set(MISSED_FROM_HEADER, String(missedFrom));
    ctx.status = 204;
  });
  router.post('/me/:uuid/evaluate', async (ctx) => {
    await evaluations.request(ownerOf(ctx), ctx.params.uuid, body(ctx));
    ctx.status = 204;
  });
  router.post('/me/:uuid/backfills', async (ctx) => {
    ctx.body = await backfills.request(ownerOf(ctx), ctx.params.uuid, body(ctx));
    ctx.status = 202;
  });
  router.get('/me/:uuid/backfills', async (ctx) => {
    ctx.body = await backfills.list(ownerOf(ctx), ctx.params.uuid);
  });
  router.get('/me/:uuid/backfills/:id', async (ctx) => {
    ctx.body = await backfills.get(ownerOf(ctx), ctx.params.uuid, ctx.params.id);
  });
  router.delete('/me/:uuid/backfills/:id', async (ctx) => {
    ctx.body = await backfills.cancel(ownerOf(ctx), ctx.params.uuid, ctx.params.id);
  });
  router.get('/me/:uuid/deliveries', async (ctx) => {
    ctx.body = await deliveries.list(ownerOf(ctx), ctx.params.uuid, ctx.query);
  });
  router.post('/me/:uuid/deliveries/:id/redeliver', async (ctx) => {
    noFields(ctx);
    ctx.body = await deliveries.redeliver(ownerOf(ctx), ctx.params.uuid, ctx.params.id);
  });
}
